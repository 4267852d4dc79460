export * from './storyturn-metrics.js';
