export * from './task-generator.js';
export * from './embodied-suites.js';
