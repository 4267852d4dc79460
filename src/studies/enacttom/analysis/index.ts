export * from './episode-metrics.js';
export * from './failure-modes.js';
export * from './episode-results.js';
export * from './episode-summary.js';
export * from './failure-labels.js';
export * from './evolution-rounds.js';
export * from './split-results.js';
