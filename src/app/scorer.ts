// Scorers added by users: a function that scores stored trials again, without new model calls
// (`mindscope score --scorer NAME`). Judge panels with a rubric are the built-in kind (scoring.ts).

import { ConfigError, MindscopeError, type Item, type Score, type StoredTranscript, type TrialKey } from '../core/index.js';
import { collect, PROTOCOL_SCORES, type Store } from '../store/index.js';

/** One stored trial, as a scorer sees it. */
export interface ScorableTrial {
  key: TrialKey;
  /** The subject's model spec. */
  spec: string;
  item: Item;
  /** The protocol's record is read with readRecord(SCHEMAS, transcript, where). */
  transcript: StoredTranscript;
  /** The protocol's own score of the trial. */
  score: Score;
}

export interface ScorerDefinition {
  /** Stored as the score's name; must not be a protocol's scorer name. */
  name: string;
  describe: string;
  /** A value in [0, 1] for accuracy-type scores and a JSON detail; undefined when the scorer does not apply to this trial. */
  score(trial: ScorableTrial): { value: number; detail?: unknown } | undefined | Promise<{ value: number; detail?: unknown } | undefined>;
}

/** Declare a scorer. */
export function defineScorer(def: ScorerDefinition): ScorerDefinition {
  if (!/^[a-z][a-z0-9:._-]*$/.test(def.name)) throw new Error(`scorer name "${def.name}" must be lower-case letters, digits and : . _ -`);
  return def;
}

export interface ApplyScorerResult {
  scorer: string;
  scored: number;
  /** Trials the scorer said it does not apply to. */
  skipped: number;
  mean: number | null;
}

/** Score every finished trial of a run with a user scorer; each score is stored under the scorer's name (replacing an earlier one). */
export async function applyScorer(store: Store, runId: string, scorer: ScorerDefinition): Promise<ApplyScorerResult> {
  if (!(await store.getRun(runId))) throw new ConfigError(`no run "${runId}" in ${store.location}`);
  const seen = new Set<string>();
  let scored = 0;
  let skipped = 0;
  let sum = 0;
  // Read first: scores are written while going through the rows.
  for (const r of await collect(store.responses(runId, PROTOCOL_SCORES))) {
    const id = `${r.subjectId}\u0000${r.suite}\u0000${r.itemId}\u0000${r.replicate}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const key: TrialKey = { runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate };
    const stored = await store.transcript(key);
    const item = await store.getItem(r.itemHash);
    if (!stored || !item) continue;
    const out = await scorer.score({ key, spec: r.spec, item, transcript: stored.transcript, score: stored.score });
    if (!out) {
      skipped++;
      continue;
    }
    if (!Number.isFinite(out.value))
      throw new MindscopeError(`scorer ${scorer.name} gave ${out.value} for ${r.suite}/${r.itemId}: a score must be a finite number`);
    await store.recordScore(key, { scorer: scorer.name, value: out.value, detail: out.detail ?? {} });
    scored++;
    sum += out.value;
  }
  return { scorer: scorer.name, scored, skipped, mean: scored ? sum / scored : null };
}
