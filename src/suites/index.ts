export * from './suite.js';
export * from './builtin.js';
export * from './read-input.js';
export { generateTomItems, renderStory, DEFAULT_MIX, type GeneratedKind, type GenerateOptions } from './generated/story-generator.js';
export { loadGenericMcq, readRecords } from './generic-mcq.js';
export * from './raster.js';
export * from './data/index.js';
