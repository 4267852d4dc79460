// Reference subjects, built from the protocols' reference policies, and the provider entry
// (`agent:`) that makes them model specs. Studies add subjects of their own (EnactToM's `team:`).

export * from './reference-agent.js';
export * from './reference-judges.js';
export * from './subject-providers.js';
