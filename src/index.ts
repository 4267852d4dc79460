// mindscope's public library API. The CLI uses nothing that is not exported here.

export * from './core/index.js';
export * as stats from './stats/index.js';
export * from './models/index.js';
export * from './store/index.js';
export * from './runner/index.js';
export * from './protocols/index.js';
export * from './judges/index.js';
export * from './suites/index.js';
export * from './analysis/index.js';
export * from './report/index.js';
export * from './evaluate.js';
export * from './results.js';
export * from './scoring.js';
export * from './authoring.js';
export * from './stats/irt/index.js';
export * from './analysis/irt/index.js';
export * from './report/irt-charts.js';
