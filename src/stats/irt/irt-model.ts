// The unidimensional logistic item response models on one parameterisation:
//   P(correct | theta) = c + (1 - c) / (1 + exp(-a (theta - b)))
// a: discrimination (> 0), b: difficulty, c: guessing floor (0 for 1PL and 2PL). 1PL shares one
// a across items; 2PL frees a per item; 3PL adds c, fixed (1/k for k-option items) or estimated.
// Item parameters travel as a struct of typed arrays so that loops over thousands of items stay
// monomorphic and allocation-free.

export type IrtModelType = '1pl' | '2pl' | '3pl';

/** Parameters of J items: a, b, c, each of length J. */
export interface IrtItems {
  a: Float64Array;
  b: Float64Array;
  c: Float64Array;
}

/** Item parameters from plain arrays (c defaults to 0). */
export function irtItems(a: ArrayLike<number>, b: ArrayLike<number>, c?: ArrayLike<number>): IrtItems {
  if (a.length !== b.length || (c && c.length !== a.length)) throw new Error('irtItems: a, b and c must have the same length');
  return { a: Float64Array.from(a), b: Float64Array.from(b), c: c ? Float64Array.from(c) : new Float64Array(a.length) };
}

/** Items at the given indices, in that order. */
export function subsetItems(items: IrtItems, indices: ArrayLike<number>): IrtItems {
  const n = indices.length;
  const out: IrtItems = { a: new Float64Array(n), b: new Float64Array(n), c: new Float64Array(n) };
  for (let k = 0; k < n; k++) {
    const i = indices[k]!;
    out.a[k] = items.a[i]!;
    out.b[k] = items.b[i]!;
    out.c[k] = items.c[i]!;
  }
  return out;
}

/** log(1 + exp(x)) without overflow. */
export function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

/** Probability of a correct answer at ability theta. */
export function irtProbability(a: number, b: number, c: number, theta: number): number {
  return c + (1 - c) / (1 + Math.exp(-a * (theta - b)));
}

/**
 * Fisher information of one item at theta: a^2 (P - c)^2 (1 - P) / ((1 - c)^2 P), which is
 * a^2 P (1 - P) when c = 0.
 */
export function irtItemInformation(a: number, b: number, c: number, theta: number): number {
  const p = irtProbability(a, b, c, theta);
  if (c === 0) return a * a * p * (1 - p);
  if (p <= 0) return 0;
  return (a * a * (p - c) * (p - c) * (1 - p)) / ((1 - c) * (1 - c) * p);
}

/** Test information (sum over items) at each theta. */
export function irtTestInformation(items: IrtItems, thetas: ArrayLike<number>): Float64Array {
  const out = new Float64Array(thetas.length);
  for (let t = 0; t < thetas.length; t++) {
    let s = 0;
    for (let i = 0; i < items.a.length; i++) s += irtItemInformation(items.a[i]!, items.b[i]!, items.c[i]!, thetas[t]!);
    out[t] = s;
  }
  return out;
}

/** Expected proportion correct over the items (the test characteristic curve divided by J) at theta. */
export function irtExpectedAccuracy(items: IrtItems, theta: number, indices?: ArrayLike<number>): number {
  const n = indices ? indices.length : items.a.length;
  if (n === 0) return Number.NaN;
  let s = 0;
  for (let k = 0; k < n; k++) {
    const i = indices ? indices[k]! : k;
    s += irtProbability(items.a[i]!, items.b[i]!, items.c[i]!, theta);
  }
  return s / n;
}
