export * from './task-generator.js';
