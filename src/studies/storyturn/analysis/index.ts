export * from './storyturn-metrics.js';
export * from './judge-agreement.js';
