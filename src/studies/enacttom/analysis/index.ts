export * from './episode-metrics.js';
export * from './pass-over-planned.js';
export * from './episode-attempts.js';
export * from './failure-modes.js';
export * from './episode-results.js';
export * from './episode-summary.js';
export * from './failure-labels.js';
export * from './evolution-rounds.js';
