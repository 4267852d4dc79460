export * from './accuracy.js';
export * from './paired-comparison.js';
export * from './trace-effect.js';
export * from './irt/index.js';
export * from './time-of-day.js';
