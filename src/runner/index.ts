export * from './run-evaluation.js';
export * from './adaptive-limiter.js';
export * from './retry-policy.js';
export * from './prices.js';
export { RecordingModel, callCacheKey, type CallEnvironment } from './recording-model.js';
export * from './callers.js';
export * from './pool.js';
