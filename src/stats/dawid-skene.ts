// Dawid-Skene aggregation of noisy labels by EM, as crowd-kit's DawidSkene: majority-vote
// shares as the start, probabilities clipped below at 1e-10, confusion matrices normalised
// per worker and true label, and the evidence lower bound per label as the stopping rule.

const EPS = 1e-10;

export interface Annotation {
  task: string;
  worker: string;
  label: string | number;
}

export interface DawidSkeneResult {
  tasks: string[];
  labels: Array<string | number>;
  /** probas[task][label]: posterior probability of each true label. */
  probas: number[][];
  priors: number[];
  /** errors[worker][observed label][true label]: P(observed | true); absent for labels a worker never used. */
  errors: Record<string, Record<string, number[]>>;
  /** Most probable label per task (the first on ties). */
  aggregated: Array<string | number>;
  iterations: number;
  lossHistory: number[];
}

/** Dawid-Skene EM over crowd labels: class priors, each annotator's confusion matrix and the most probable label per task (crowd-kit's algorithm). */
export function dawidSkene(data: Annotation[], opts: { maxIterations?: number; tol?: number } = {}): DawidSkeneResult {
  const maxIterations = opts.maxIterations ?? 100;
  const tol = opts.tol ?? 1e-5;
  const tasks = [...new Set(data.map((d) => d.task))];
  const labels = [...new Set(data.map((d) => d.label))].sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)),
  );
  const K = labels.length;
  const taskIndex = new Map(tasks.map((t, i) => [t, i]));
  const labelIndex = new Map(labels.map((l, i) => [l, i]));
  const rows = data.map((d) => ({ t: taskIndex.get(d.task)!, w: d.worker, l: labelIndex.get(d.label)! }));
  const workers = [...new Set(rows.map((r) => r.w))];

  // Majority-vote shares.
  let probas = tasks.map(() => new Array(K).fill(0));
  for (const r of rows) probas[r.t]![r.l] += 1;
  probas = probas.map((p) => {
    const s = p.reduce((a, b) => a + b, 0);
    return p.map((v) => v / s);
  });

  const meanPriors = (p: number[][]) => labels.map((_, k) => p.reduce((s, row) => s + row[k]!, 0) / p.length);
  const mStep = (p: number[][]) => {
    const errors: Record<string, Record<string, number[]>> = {};
    for (const r of rows) {
      const byLabel = (errors[r.w] ??= {});
      const cell = (byLabel[String(labels[r.l])] ??= new Array(K).fill(0));
      for (let k = 0; k < K; k++) cell[k]! += p[r.t]![k]!;
    }
    for (const w of workers) {
      const byLabel = errors[w]!;
      for (const cell of Object.values(byLabel)) for (let k = 0; k < K; k++) cell[k] = Math.max(cell[k]!, EPS);
      const sums = new Array(K).fill(0);
      for (const cell of Object.values(byLabel)) for (let k = 0; k < K; k++) sums[k] += cell[k];
      for (const cell of Object.values(byLabel)) for (let k = 0; k < K; k++) cell[k]! /= sums[k];
    }
    return errors;
  };
  const eStep = (priors: number[], errors: Record<string, Record<string, number[]>>) => {
    const logs = tasks.map(() => priors.map((p) => Math.log(p)));
    for (const r of rows) {
      const cell = errors[r.w]![String(labels[r.l])]!;
      for (let k = 0; k < K; k++) logs[r.t]![k]! += Math.log(cell[k]!);
    }
    return logs.map((row) => {
      const max = Math.max(...row);
      const e = row.map((v) => Math.exp(v - max));
      const s = e.reduce((a, b) => a + b, 0);
      return e.map((v) => Math.max(v / s, EPS));
    });
  };
  const elbo = (p: number[][], priors: number[], errors: Record<string, Record<string, number[]>>) => {
    let joint = 0;
    for (const r of rows) {
      const cell = errors[r.w]![String(labels[r.l])]!;
      for (let k = 0; k < K; k++) joint += p[r.t]![k]! * (Math.log(cell[k]!) + Math.log(priors[k]!));
    }
    let entropy = 0;
    for (const row of p) for (const v of row) entropy -= Math.log(v) * v;
    return joint + entropy;
  };

  let priors = meanPriors(probas);
  let errors = mStep(probas);
  let loss = Number.NEGATIVE_INFINITY;
  const lossHistory: number[] = [];
  let iterations = 0;
  for (let it = 0; it < maxIterations; it++) {
    probas = eStep(priors, errors);
    priors = meanPriors(probas);
    errors = mStep(probas);
    iterations++;
    const newLoss = elbo(probas, priors, errors) / rows.length;
    lossHistory.push(newLoss);
    if (newLoss - loss < tol) break;
    loss = newLoss;
  }
  const aggregated = probas.map((p) => labels[p.indexOf(Math.max(...p))]!);
  return { tasks, labels, probas, priors, errors, aggregated, iterations, lossHistory };
}
