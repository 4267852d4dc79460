export * from './director-scene.js';
export * from './triangles.js';
export * from './director-design.js';
