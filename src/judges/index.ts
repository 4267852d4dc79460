export * from './rubric.js';
export * from './judge-output.js';
export * from './aggregate.js';
export * from './panel.js';
export * from './family.js';
export * from './validation.js';
