export * from './vision-profiles.js';
