// Response matrices (items x subjects, cells 0..1 or null) as IRT responses (persons x items,
// NaN for missing), and the tool version written into banks.

import { InputError } from '../../core/index.js';
import type { ResponseMatrix } from '../../store/index.js';
import type { IrtResponses } from '../../stats/irt/index.js';

/** Persons (the matrix's subjects) x items, person-major. */
export function matrixToIrtResponses(matrix: ResponseMatrix): IrtResponses {
  const N = matrix.subjects.length;
  const J = matrix.items.length;
  const values = new Float64Array(N * J);
  for (let i = 0; i < J; i++) {
    const row = matrix.cells[i]!;
    for (let j = 0; j < N; j++) {
      const v = row[j];
      values[j * J + i] = v === null || v === undefined ? Number.NaN : v;
    }
  }
  return { nPersons: N, nItems: J, values };
}

/**
 * Several response matrices as one: items stacked in order, subjects the union in order of first
 * appearance (cells blank where a file lacks a subject). An item in two matrices is an error.
 */
export function combineMatrices(matrices: readonly ResponseMatrix[]): ResponseMatrix {
  if (matrices.length === 1) return matrices[0]!;
  const subjects: string[] = [];
  const index = new Map<string, number>();
  for (const m of matrices)
    for (const s of m.subjects)
      if (!index.has(s)) {
        index.set(s, subjects.length);
        subjects.push(s);
      }
  const items: ResponseMatrix['items'] = [];
  const cells: ResponseMatrix['cells'] = [];
  const seen = new Set<string>();
  for (const m of matrices) {
    const cols = m.subjects.map((s) => index.get(s)!);
    m.items.forEach((it, i) => {
      const key = `${it.suite}\u0000${it.itemId}`;
      if (seen.has(key)) throw new InputError(`item ${it.suite}/${it.itemId} appears in two matrices`);
      seen.add(key);
      items.push(it);
      const row: Array<number | null> = new Array(subjects.length).fill(null);
      m.cells[i]!.forEach((v, j) => {
        row[cols[j]!] = v ?? null;
      });
      cells.push(row);
    });
  }
  return { subjects, items, cells };
}
