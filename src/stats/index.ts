export * from './wilson-interval.js';
