// Reference subjects and teams, built from the protocols' reference policies, and the provider
// entries (`agent:`, `team:`) that make them model specs.

export * from './reference-agent.js';
export * from './reference-judges.js';
export * from '../studies/enacttom/team-model.js';
export * from './subject-providers.js';
