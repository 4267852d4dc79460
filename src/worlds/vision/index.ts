export * from './director-scene.js';
export * from './triangles.js';
