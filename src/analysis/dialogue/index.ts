export * from './rate-table.js';
export * from './dialtom-gaps.js';
export * from './dialtom-run.js';
export * from './inference-overlap.js';
export * from './dialtom-extras.js';
export * from './dialtom-stats.js';
