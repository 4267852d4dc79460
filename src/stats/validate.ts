// Input checks shared by the statistics functions, so that a NaN, a ragged table or a
// misspelt option gives a clear error (or NaN where the function's contract says so) rather
// than a number that looks valid.

/** Whether any value is NaN. */
export function hasNaN(x: ArrayLike<number>): boolean {
  for (let i = 0; i < x.length; i++) if (Number.isNaN(x[i])) return true;
  return false;
}

/** Whether any value is not a finite number (NaN or an infinity). */
export function hasNonFinite(x: ArrayLike<number>): boolean {
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) return true;
  return false;
}

/** Throws unless x and y have the same length; returns it. */
export function sameLength(fn: string, x: ArrayLike<unknown>, y: ArrayLike<unknown>, names = ['x', 'y']): number {
  if (x.length !== y.length) throw new Error(`${fn}: ${names[0]} and ${names[1]} differ in length (${x.length} and ${y.length})`);
  return x.length;
}

/** Throws at the first value that is not a finite number. */
export function requireFinite(fn: string, name: string, x: ArrayLike<number>): void {
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Error(`${fn}: ${name}[${i}] is ${String(v)}, not a finite number`);
  }
}

/** Throws at the first value that is not a finite number >= 0. */
export function requireCounts(fn: string, name: string, x: ArrayLike<number>): void {
  for (let i = 0; i < x.length; i++) {
    const v = x[i];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw new Error(`${fn}: ${name}[${i}] is ${String(v)}, not a count >= 0`);
  }
}

/** Throws unless every row has the same length and every value is finite; returns [rows, columns]. */
export function requireMatrix(fn: string, rows: ArrayLike<ArrayLike<number>>, opts: { counts?: boolean } = {}): [number, number] {
  const r = rows.length;
  if (r === 0) throw new Error(`${fn}: the data have no rows`);
  const c = rows[0]!.length;
  for (let i = 0; i < r; i++) {
    const row = rows[i]!;
    if (row.length !== c) throw new Error(`${fn}: row ${i} has ${row.length} values, row 0 has ${c}`);
    for (let j = 0; j < c; j++) {
      const v = row[j];
      if (typeof v !== 'number' || !Number.isFinite(v) || (opts.counts && v < 0))
        throw new Error(`${fn}: row ${i}, column ${j} is ${String(v)}, not a finite${opts.counts ? ' count >= 0' : ' number'}`);
    }
  }
  return [r, c];
}

/** Throws unless value is one of the allowed strings (an options object or a misspelling is an error). */
export function requireOneOf<T extends string>(fn: string, name: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    const shown = typeof value === 'string' ? `"${value}"` : typeof value === 'object' ? JSON.stringify(value) : String(value);
    throw new Error(`${fn}: ${name} must be ${allowed.map((a) => `'${a}'`).join(' or ')}, not ${shown}`);
  }
  return value as T;
}
