// `mindscope/matrix`: the response-matrix files (CSV) and the CSV and decimal readers under
// them, on core's plain helpers alone: no record schema, SQLite or PostgreSQL (all also in
// `mindscope/store` and `mindscope/core`). For analyses of matrix and score files that should
// start fast, such as the audit.
export * from './response-matrix.js';
export { parseCsv, type CsvRow } from '../../core/csv.js';
export { decimalNumber } from '../../core/decimal-number.js';
export * from './item-exclusions.js';
