export * from './manifest.js';
export * from './cache.js';
export { type DatasetStatus, listDatasets } from './dataset-status.js';
export * from './fetch-data.js';
export * from './verify-data.js';
