// Classical test theory: the corrected item-total (item-rest, point-biserial) correlation.

import { pearson } from './correlation.js';
import { requireMatrix } from './validate.js';

/**
 * For each item (column of a subjects x items matrix), the Pearson correlation between the item
 * and the sum of the other items; null when the item or the rest score has zero variance
 * (as psych::alpha's r.drop and cor(X[,j], rowSums(X) - X[,j]) in R).
 */
export function itemRestCorrelation(matrix: ArrayLike<ArrayLike<number>>): Array<number | null> {
  // A NaN cell would otherwise turn its item into null, which reads as zero variance.
  if (matrix.length) requireMatrix('itemRestCorrelation', matrix);
  const rows = matrix.length;
  const cols = rows ? matrix[0]!.length : 0;
  const total = new Float64Array(rows);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) total[i]! += matrix[i]![j]!;
  const item = new Float64Array(rows);
  const rest = new Float64Array(rows);
  const out: Array<number | null> = [];
  for (let j = 0; j < cols; j++) {
    for (let i = 0; i < rows; i++) {
      item[i] = matrix[i]![j]!;
      rest[i] = total[i]! - matrix[i]![j]!;
    }
    const r = pearson(item, rest);
    out.push(Number.isNaN(r) ? null : r);
  }
  return out;
}
