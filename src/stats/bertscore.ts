// BERTScore (Zhang et al. 2020): greedy matching of contextual token embeddings by cosine
// similarity. Recall matches every reference token to its most similar candidate token,
// precision every candidate token to its most similar reference token, F1 their harmonic mean;
// optional idf weights per token, and the baseline rescaling (s - b) / (1 - b) that the
// bert-score package applies with rescale_with_baseline. The embeddings come from a model the
// caller chooses: scores are comparable only between runs with the same model, layer and baseline.

export interface BertScoreResult {
  precision: number;
  recall: number;
  f1: number;
}

function normalise(v: ArrayLike<number>): Float64Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i]! * v[i]!;
  const norm = Math.sqrt(s);
  if (!(norm > 0)) throw new RangeError('bertScore: a token embedding has zero length');
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / norm;
  return out;
}

function greedy(from: Float64Array[], to: Float64Array[], weights: readonly number[] | undefined): number {
  let num = 0;
  let den = 0;
  from.forEach((x, i) => {
    let best = -Infinity;
    for (const y of to) {
      let dot = 0;
      for (let d = 0; d < x.length; d++) dot += x[d]! * y[d]!;
      if (dot > best) best = dot;
    }
    const w = weights ? weights[i]! : 1;
    num += w * best;
    den += w;
  });
  return num / den;
}

/**
 * BERTScore of a candidate against one reference, from their token embeddings (one vector per
 * token, special tokens left out). `idf` gives per-token weights for each side; `baseline`
 * rescales precision, recall and F1 as (s - b) / (1 - b) (give the same b for all three, or one each).
 */
export function bertScore(
  candidate: readonly ArrayLike<number>[],
  reference: readonly ArrayLike<number>[],
  opts: { idf?: { candidate: readonly number[]; reference: readonly number[] }; baseline?: number | BertScoreResult } = {},
): BertScoreResult {
  if (candidate.length === 0 || reference.length === 0) throw new RangeError('bertScore: a text has no tokens');
  const dim = candidate[0]!.length;
  if ([...candidate, ...reference].some((v) => v.length !== dim)) throw new RangeError('bertScore: token embeddings differ in length');
  if (opts.idf && (opts.idf.candidate.length !== candidate.length || opts.idf.reference.length !== reference.length))
    throw new RangeError('bertScore: one idf weight per token is needed');
  const c = candidate.map(normalise);
  const r = reference.map(normalise);
  const precision = greedy(c, r, opts.idf?.candidate);
  const recall = greedy(r, c, opts.idf?.reference);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  if (opts.baseline === undefined) return { precision, recall, f1 };
  const b = typeof opts.baseline === 'number' ? { precision: opts.baseline, recall: opts.baseline, f1: opts.baseline } : opts.baseline;
  const rescale = (s: number, base: number) => (s - base) / (1 - base);
  return { precision: rescale(precision, b.precision), recall: rescale(recall, b.recall), f1: rescale(f1, b.f1) };
}
