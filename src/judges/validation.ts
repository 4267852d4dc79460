// Validating judges on anchors: texts with expected score intervals, each scored K times by
// each judge. Per judge: recovery (the share of scores within 0.5 of the expected interval,
// over the fields an anchor gives an interval for; also per field) and, per anchor and field,
// the SD over the K repetitions; a judge passes when recovery meets
// its gate and every SD its field's gate (defaults: recovery 80%; SD at most 0.5 for the first
// field and 0.8 for the second, as the VLM paper's two-field rubric; 0.5 for any further one).

import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { checkJsonDepth, InputError } from '../core/index.js';
import { judgeOnce, type JudgeCaller } from './panel.js';
import type { Rubric } from './rubric.js';

export interface Anchor {
  id: string;
  text: string;
  vars?: Record<string, string>;
  /** Per field, the interval the score should fall in (at least one field; a field left out is not counted in recovery). */
  expected: Record<string, [number, number]>;
}

export interface JudgeGates {
  recovery: number;
  /** SD gate per field, in rubric order (the last applies to any further field). */
  sd: number[];
}

export const DEFAULT_GATES: JudgeGates = { recovery: 0.8, sd: [0.5, 0.8, 0.5] };

export interface JudgeValidation {
  judge: string;
  recovery: number;
  /** Recovery per rubric field, over the anchors with an interval for it (null: none has). */
  recoveryByField: Record<string, number | null>;
  failures: number;
  anchors: Array<{ id: string; sd: Record<string, number>; mean: Record<string, number> }>;
  pass: boolean;
  reasons: string[];
}

/** Read anchor texts with their expected score intervals for `judge validate`, checked against the rubric's fields. */
export function loadAnchors(path: string, rubric: Rubric): Anchor[] {
  let raw: unknown;
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
    raw = path.endsWith('.jsonl')
      ? text
          .split('\n')
          .filter((l) => l.trim())
          .map((l) => JSON.parse(l))
      : path.endsWith('.json')
        ? JSON.parse(text)
        : YAML.parse(text);
  } catch (err) {
    throw new InputError(`cannot read anchors: ${(err as Error).message}`, path);
  }
  if (path.endsWith('.jsonl')) text.split('\n').forEach((l, i) => checkJsonDepth(l, path, i + 1));
  else if (path.endsWith('.json')) checkJsonDepth(text, path);
  if (!Array.isArray(raw) || raw.length === 0) throw new InputError('anchors must be a non-empty list', path);
  return raw.map((a: Record<string, unknown>, i: number) => {
    if (typeof a?.text !== 'string') throw new InputError(`anchor ${i}: "text" is missing`, path);
    const expected = a.expected as Record<string, unknown>;
    if (!expected || typeof expected !== 'object' || Object.keys(expected).length === 0)
      throw new InputError(`anchor ${i}: "expected" intervals are missing`, path);
    const names = rubric.fields.map((f) => f.name);
    for (const [name, iv] of Object.entries(expected)) {
      if (!names.includes(name))
        throw new InputError(`anchor ${i}: expected.${name} is not a field of rubric "${rubric.name}" (${names.join(', ')})`, path);
      if (!Array.isArray(iv) || iv.length !== 2 || !(Number(iv[0]) <= Number(iv[1])))
        throw new InputError(`anchor ${i}: expected.${name} must be [low, high]`, path);
    }
    return {
      id: String(a.id ?? i),
      text: a.text,
      vars: (a.vars as Record<string, string>) ?? {},
      expected: expected as Record<string, [number, number]>,
    };
  });
}

const sd = (xs: number[]) => {
  if (xs.length < 2) return 0;
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
};

/** Score every anchor K times with each judge: recovery, per-anchor SD, and whether each judge passes the gates. */
export async function validateJudges(
  judges: JudgeCaller[],
  rubric: Rubric,
  anchors: Anchor[],
  opts: { k?: number; gates?: JudgeGates } = {},
): Promise<JudgeValidation[]> {
  const k = opts.k ?? 5;
  const gates = opts.gates ?? DEFAULT_GATES;
  return Promise.all(
    judges.map(async (judge) => {
      const within: Record<string, number> = Object.fromEntries(rubric.fields.map((f) => [f.name, 0]));
      const total: Record<string, number> = Object.fromEntries(rubric.fields.map((f) => [f.name, 0]));
      let failures = 0;
      const perAnchor: JudgeValidation['anchors'] = [];
      for (const anchor of anchors) {
        const scores: Record<string, number[]> = Object.fromEntries(rubric.fields.map((f) => [f.name, []]));
        const scored = rubric.fields.filter((f) => anchor.expected[f.name]);
        for (let r = 0; r < k; r++) {
          const rec = await judgeOnce(judge, rubric, { subject: `anchor-${anchor.id}`, response: anchor.text, vars: anchor.vars });
          if (!rec.values) {
            failures++;
            for (const f of scored) total[f.name]!++;
            continue;
          }
          for (const f of rubric.fields) scores[f.name]!.push(rec.values[f.name]!);
          for (const f of scored) {
            const v = rec.values[f.name]!;
            const [lo, hi] = anchor.expected[f.name]!;
            total[f.name]!++;
            if (v >= lo - 0.5 && v <= hi + 0.5) within[f.name]!++;
          }
        }
        perAnchor.push({
          id: anchor.id,
          sd: Object.fromEntries(rubric.fields.map((f) => [f.name, sd(scores[f.name]!)])),
          mean: Object.fromEntries(
            rubric.fields.map((f) => [
              f.name,
              scores[f.name]!.length ? scores[f.name]!.reduce((a, b) => a + b, 0) / scores[f.name]!.length : Number.NaN,
            ]),
          ),
        });
      }
      const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
      const recovery = sum(total) ? sum(within) / sum(total) : 0;
      const recoveryByField = Object.fromEntries(
        rubric.fields.map((f) => [f.name, total[f.name] ? within[f.name]! / total[f.name]! : null]),
      );
      const reasons: string[] = [];
      if (recovery < gates.recovery) reasons.push(`recovery ${(recovery * 100).toFixed(1)}% < ${(gates.recovery * 100).toFixed(0)}%`);
      rubric.fields.forEach((f, i) => {
        const gate = gates.sd[Math.min(i, gates.sd.length - 1)]!;
        const worst = perAnchor.reduce((m, a) => (a.sd[f.name]! > m.sd ? { id: a.id, sd: a.sd[f.name]! } : m), { id: '', sd: 0 });
        if (worst.sd > gate) reasons.push(`${f.name}: SD ${worst.sd.toFixed(2)} on anchor ${worst.id} > ${gate}`);
      });
      return { judge: judge.spec, recovery, recoveryByField, failures, anchors: perAnchor, pass: reasons.length === 0, reasons };
    }),
  );
}
