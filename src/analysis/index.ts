export * from './accuracy.js';
