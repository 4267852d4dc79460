export * from './types.js';
export * from './categories.js';
export * from './hash.js';
export * from './random.js';
export * from './errors.js';
export * from './task.js';
export * from './world/index.js';
export * from './csv.js';
