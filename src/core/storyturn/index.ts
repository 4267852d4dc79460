export * from './storyturn.js';
