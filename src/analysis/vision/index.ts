export * from './vision-profiles.js';
export * from './director-run.js';
export * from './triangles-run.js';
