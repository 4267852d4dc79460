export * from './events.js';
export * from './tracker.js';
