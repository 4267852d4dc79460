// The simulators: the Director Task's scenes, the animated triangles, and the belief tracker
// behind the generated stories. (EnactToM's text world is its study's: mindscope/studies/enacttom.)

export * from './vision/index.js';
export * from './belief/index.js';
