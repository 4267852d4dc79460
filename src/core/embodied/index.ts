export * from './goal.js';
export * from './task.js';
export * from './world.js';
export * from './actions.js';
export * from './knowledge.js';
export * from './verifier.js';
export * from './enacttom-format.js';
export * from './episode-record.js';
