// The simulators: the EnactToM text world with knowledge tracking and its verifier, the Director
// Task's scenes, the animated triangles, and the belief tracker behind the generated stories.

export * from './vision/index.js';
export * from './belief/index.js';
