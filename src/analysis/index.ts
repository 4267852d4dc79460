export * from './accuracy.js';
export * from './audit/score-table.js';
export * from './audit/benchmark-level.js';
