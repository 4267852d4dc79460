export * from './director-scene.js';
