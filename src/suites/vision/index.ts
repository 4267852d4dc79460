export * from './director-picture.js';
export * from './director-suite.js';
