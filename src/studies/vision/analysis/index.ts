export * from './vision-profiles.js';
export * from './director-run.js';
export * from './director-balance.js';
export * from './triangles-cells.js';
export * from './triangles-profiles.js';
export * from './frame-similarity.js';
export * from './judge-ablation.js';
export * from './triangles-run.js';
