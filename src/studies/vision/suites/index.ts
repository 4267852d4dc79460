export * from './director-picture.js';
export * from './director-suite.js';
export * from './triangle-grid.js';
export * from './triangles-suite.js';
export * from './video-frames.js';
export * from './clip-video.js';
