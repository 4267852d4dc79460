export * from './manifest.js';
export * from './cache.js';
export * from './fetch-data.js';
export * from './verify-data.js';
