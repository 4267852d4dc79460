/**
 * `mindscope/audit`: the psychometric audit of ToM benchmarks on its own (convergent and
 * discriminant validity, the item filter, cross-fitting, the factor structure, the
 * benchmark-level analyses), with the response-matrix files it reads (also in
 * `mindscope/store`). It loads the statistics and nothing of the store, the models or the record
 * schemas: `mindscope audit` starts in about half the time `mindscope/analysis` takes to load.
 */
export * from './score-table.js';
export * from './benchmark-level.js';
export * from './simulate-panel.js';
export * from './benchmark-matrix.js';
export * from './convergent-validity.js';
export * from './item-filter.js';
export * from './cross-fit.js';
export * from './factor-structure.js';
export * from './matrix-audit.js';
export * from './discriminant-controls.js';
export * from './interval-coverage.js';
// The errors its checks of input throw.
export { ConfigError, InputError } from '../../core/errors.js';
export {
  matrixFromCsv,
  readMatrixCsv,
  writeMatrixCsv,
  type MatrixReadOptions,
  type ResponseMatrix,
} from '../../store/matrix/response-matrix.js';
