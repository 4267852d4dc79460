export * from './storyturn-generator.js';
export * from './storyturn-loader.js';
export * from './picture.js';
export * from './storyturn-authoring.js';
export * from './storyturn-stats.js';
