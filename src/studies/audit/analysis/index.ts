/**
 * `mindscope/audit`: the psychometric audit of ToM benchmarks on its own (convergent and
 * discriminant validity, the item filter, cross-fitting, the factor structure, the
 * benchmark-level analyses), with the response-matrix files it reads (also in
 * `mindscope/matrix` and `mindscope/store`). It loads the statistics and those files, not the
 * store's index (SQLite, PostgreSQL), the models or the record schemas: about 30 ms to load,
 * against 120 ms for `mindscope/analysis`. The audit study's entry (`mindscope/studies/audit`)
 * exports the same with its plugin and HTML report sections.
 */
export * from './score-table.js';
export * from './benchmark-level.js';
export * from './simulate-panel.js';
export * from './benchmark-matrix.js';
export * from './convergent-validity.js';
export * from './item-filter.js';
export * from './cross-fit.js';
export * from './scenario-verdict.js';
export * from './factor-structure.js';
export * from './confirmatory.js';
export * from './matrix-audit.js';
export * from './discriminant-controls.js';
export * from './interval-coverage.js';
// The errors its checks of input throw.
export { ConfigError, InputError } from '../../../core/errors.js';
export {
  matrixFromCsv,
  readMatrixCsv,
  writeMatrixCsv,
  type MatrixReadOptions,
  type ResponseMatrix,
} from '../../../store/matrix/index.js';
