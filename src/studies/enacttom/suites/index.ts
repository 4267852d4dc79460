export * from './task-families.js';
export * from './task-generator.js';
export * from './pool-composition.js';
export * from './embodied-suites.js';
export * from './task-evolution.js';
