export * from './protocol.js';
export * from './builtin.js';
export * from './mcq/mcq-protocol.js';
export * from './mcq/extract-answer.js';
export * from './mcq/template.js';
export * from './mcq/reasoning-trace.js';
export * from './mcq/reference-policies.js';
