// Rows of observations (n rows of p values) held variable by variable instead: the layout the
// item-major statistics read (an audit's responses are held that way already).

/** values[j * n + i] = rows[i][j], for n rows of p values (p from the first row; 0 with no rows). */
export function variableMajor(rows: ArrayLike<ArrayLike<number>>): { values: Float64Array; n: number; p: number } {
  const n = rows.length;
  const p = n ? rows[0]!.length : 0;
  const values = new Float64Array(n * p);
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    for (let j = 0; j < p; j++) values[j * n + i] = row[j]!;
  }
  return { values, n, p };
}
