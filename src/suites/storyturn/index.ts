export * from './storyturn-generator.js';
export * from './storyturn-loader.js';
export * from './picture.js';
