// Text overlap against references: BLEU as sacreBLEU 2 computes it (13a tokeniser, 'exp'
// smoothing, corpus and sentence level) and ROUGE-L as Google's rouge_score computes it.

/** sacreBLEU's 13a tokeniser (mteval-v13a). */
export function tokenize13a(line: string): string {
  let s = line
    .replace(/<skipped>/g, '')
    .replace(/-\n/g, '')
    .replace(/\n/g, ' ');
  if (s.includes('&'))
    s = s
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  s = ` ${s} `;
  s = s.replace(/([{-~[-` -&(-+:-@/])/g, ' $1 ');
  s = s.replace(/([^0-9])([.,])/g, '$1 $2 ');
  s = s.replace(/([.,])([^0-9])/g, ' $1 $2');
  s = s.replace(/([0-9])(-)/g, '$1 $2 ');
  return s.split(/\s+/).filter(Boolean).join(' ');
}

function ngramCounts(tokens: string[], n: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    const g = tokens.slice(i, i + n).join('\u0001');
    m.set(g, (m.get(g) ?? 0) + 1);
  }
  return m;
}

export interface BleuResult {
  score: number;
  counts: number[];
  totals: number[];
  precisions: number[];
  bp: number;
  sysLen: number;
  refLen: number;
}

const MAX_ORDER = 4;

function sentenceStats(hyp: string, refs: string[]) {
  const h = tokenize13a(hyp).split(' ').filter(Boolean);
  const rs = refs.map((r) => tokenize13a(r).split(' ').filter(Boolean));
  // The closest reference length, the shorter on ties.
  let refLen = rs[0]!.length;
  for (const r of rs) {
    const d = Math.abs(r.length - h.length);
    const best = Math.abs(refLen - h.length);
    if (d < best || (d === best && r.length < refLen)) refLen = r.length;
  }
  const counts: number[] = [];
  const totals: number[] = [];
  for (let n = 1; n <= MAX_ORDER; n++) {
    const hc = ngramCounts(h, n);
    const maxRef = new Map<string, number>();
    for (const r of rs) for (const [g, c] of ngramCounts(r, n)) maxRef.set(g, Math.max(maxRef.get(g) ?? 0, c));
    let match = 0;
    for (const [g, c] of hc) match += Math.min(c, maxRef.get(g) ?? 0);
    counts.push(match);
    totals.push(Math.max(0, h.length - n + 1));
  }
  return { counts, totals, sysLen: h.length, refLen };
}

function computeBleu(counts: number[], totals: number[], sysLen: number, refLen: number, effectiveOrder: boolean): BleuResult {
  const bp = sysLen >= refLen ? 1 : sysLen === 0 ? 0 : Math.exp(1 - refLen / sysLen);
  const precisions = new Array(MAX_ORDER).fill(0);
  let smooth = 1;
  let order = MAX_ORDER;
  for (let n = 1; n <= MAX_ORDER; n++) {
    if (totals[n - 1] === 0) break;
    if (effectiveOrder) order = n;
    if (counts[n - 1] === 0) {
      smooth *= 2;
      precisions[n - 1] = 100 / (smooth * totals[n - 1]!);
    } else precisions[n - 1] = (100 * counts[n - 1]!) / totals[n - 1]!;
  }
  // No matching unigram at all: BLEU is 0.
  const score =
    counts[0] === 0 ? 0 : bp * Math.exp(precisions.slice(0, order).reduce((s, p) => s + (p === 0 ? -9999999999 : Math.log(p)), 0) / order);
  return { score, counts, totals, precisions, bp, sysLen, refLen };
}

/** Corpus BLEU: `references[r][i]` is reference r of hypothesis i (as sacreBLEU's corpus_bleu). */
export function bleu(hypotheses: string[], references: string[][]): BleuResult {
  for (const refs of references)
    if (refs.length !== hypotheses.length) throw new Error('every reference stream needs one reference per hypothesis');
  const counts = new Array(MAX_ORDER).fill(0);
  const totals = new Array(MAX_ORDER).fill(0);
  let sysLen = 0;
  let refLen = 0;
  hypotheses.forEach((h, i) => {
    const s = sentenceStats(
      h,
      references.map((r) => r[i]!),
    );
    s.counts.forEach((c, n) => (counts[n] += c));
    s.totals.forEach((t, n) => (totals[n] += t));
    sysLen += s.sysLen;
    refLen += s.refLen;
  });
  return computeBleu(counts, totals, sysLen, refLen, false);
}

/** Sentence BLEU (sacreBLEU's sentence_bleu: effective order on by default). */
export function sentenceBleu(hypothesis: string, references: string[], opts: { effectiveOrder?: boolean } = {}): BleuResult {
  const s = sentenceStats(hypothesis, references);
  return computeBleu(s.counts, s.totals, s.sysLen, s.refLen, opts.effectiveOrder ?? true);
}

/** rouge_score's tokeniser without stemming: lower case, runs of [^a-z0-9] as separators. */
export function rougeTokens(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(/\s+/)
    .filter((t) => /^[a-z0-9]+$/.test(t));
}

function lcsLength(a: string[], b: string[]): number {
  const prev = new Array(b.length + 1).fill(0);
  const cur = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    for (let j = 0; j <= b.length; j++) prev[j] = cur[j];
  }
  return prev[b.length];
}

/** ROUGE-L of a prediction against a target. */
export function rougeL(target: string, prediction: string): { precision: number; recall: number; fmeasure: number; lcs: number } {
  const t = rougeTokens(target);
  const p = rougeTokens(prediction);
  if (t.length === 0 || p.length === 0) return { precision: 0, recall: 0, fmeasure: 0, lcs: 0 };
  const lcs = lcsLength(t, p);
  const precision = lcs / p.length;
  const recall = lcs / t.length;
  return { precision, recall, fmeasure: precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0, lcs };
}
