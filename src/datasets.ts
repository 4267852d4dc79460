// A narrow public entry point for listing the public ToM datasets and the data cache
// (`mindscope data list`), without loading the suites or the schema library as the suites
// entry does. Everything here is exported by mindscope/suites too.

export { dataRoot } from './suites/data/cache.js';
export { type DatasetStatus, listDatasets } from './suites/data/dataset-status.js';
