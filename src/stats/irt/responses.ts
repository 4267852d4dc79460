// Response data for IRT: persons (models) x items, person-major, each cell 1, 0, a fraction in
// (0, 1) (a mean over replicates, used as a fractional Bernoulli outcome) or NaN (missing).
// The EM works on a sparse view of it: per person the items with a positive score and the
// missing items, so that one E-step costs (positive + missing cells) x quadrature nodes.

export interface IrtResponses {
  nPersons: number;
  nItems: number;
  /** values[person * nItems + item]: 0..1, or NaN when missing. */
  values: Float64Array;
}

/** Responses from rows of scores (null, undefined or NaN = missing); rows are persons. */
export function irtResponses(rows: ArrayLike<ArrayLike<number | null | undefined>>): IrtResponses {
  const nPersons = rows.length;
  const nItems = nPersons > 0 ? rows[0]!.length : 0;
  const values = new Float64Array(nPersons * nItems);
  for (let j = 0; j < nPersons; j++) {
    const row = rows[j]!;
    if (row.length !== nItems) throw new Error(`irtResponses: row ${j} has ${row.length} cells, the first row has ${nItems}`);
    for (let i = 0; i < nItems; i++) {
      const v = row[i];
      values[j * nItems + i] = v === null || v === undefined ? Number.NaN : v;
    }
  }
  return checkResponses({ nPersons, nItems, values });
}

/** Throws when a cell is outside [0, 1] or the sizes disagree. */
export function checkResponses(r: IrtResponses): IrtResponses {
  if (r.values.length !== r.nPersons * r.nItems)
    throw new Error(`IRT responses: ${r.values.length} values for ${r.nPersons} persons x ${r.nItems} items`);
  for (let k = 0; k < r.values.length; k++) {
    const v = r.values[k]!;
    if (v < 0 || v > 1) throw new Error(`IRT responses: person ${Math.floor(k / r.nItems)}, item ${k % r.nItems}: ${v} is not in [0, 1]`);
  }
  return r;
}

/** The responses of some persons (rows), in the given order. */
export function selectPersons(r: IrtResponses, persons: ArrayLike<number>): IrtResponses {
  const values = new Float64Array(persons.length * r.nItems);
  for (let k = 0; k < persons.length; k++)
    values.set(r.values.subarray(persons[k]! * r.nItems, (persons[k]! + 1) * r.nItems), k * r.nItems);
  return { nPersons: persons.length, nItems: r.nItems, values };
}

/** The responses on some items (columns), in the given order. */
export function selectItems(r: IrtResponses, items: ArrayLike<number>): IrtResponses {
  const values = new Float64Array(r.nPersons * items.length);
  for (let j = 0; j < r.nPersons; j++)
    for (let k = 0; k < items.length; k++) values[j * items.length + k] = r.values[j * r.nItems + items[k]!]!;
  return { nPersons: r.nPersons, nItems: items.length, values };
}

/** Sparse person-major view: positive cells (item, value) and missing cells per person. */
export interface PackedResponses {
  nPersons: number;
  nItems: number;
  posStart: Int32Array;
  posItem: Int32Array;
  posValue: Float64Array;
  missStart: Int32Array;
  missItem: Int32Array;
  /** True when every observed cell is 0 or 1. */
  binary: boolean;
  /** Observed cells per item. */
  observedPerItem: Float64Array;
}

/** Pack a response matrix for the EM: correct and missing cells as index lists per person, counts per item. */
export function packResponses(r: IrtResponses): PackedResponses {
  const { nPersons, nItems, values } = r;
  let nPos = 0;
  let nMiss = 0;
  for (let k = 0; k < values.length; k++) {
    const v = values[k]!;
    if (Number.isNaN(v)) nMiss++;
    else if (v > 0) nPos++;
  }
  const posStart = new Int32Array(nPersons + 1);
  const posItem = new Int32Array(nPos);
  const posValue = new Float64Array(nPos);
  const missStart = new Int32Array(nPersons + 1);
  const missItem = new Int32Array(nMiss);
  const observedPerItem = new Float64Array(nItems);
  let binary = true;
  let p = 0;
  let m = 0;
  for (let j = 0; j < nPersons; j++) {
    posStart[j] = p;
    missStart[j] = m;
    const row = j * nItems;
    for (let i = 0; i < nItems; i++) {
      const v = values[row + i]!;
      if (Number.isNaN(v)) {
        missItem[m++] = i;
        continue;
      }
      observedPerItem[i]!++;
      if (v > 0) {
        posItem[p] = i;
        posValue[p++] = v;
        if (v !== 1) binary = false;
      }
    }
  }
  posStart[nPersons] = p;
  missStart[nPersons] = m;
  return { nPersons, nItems, posStart, posItem, posValue, missStart, missItem, binary, observedPerItem };
}
