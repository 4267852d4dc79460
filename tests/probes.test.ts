// The validity probes on generated data and the released-suite fixtures, run through the runner
// into a SQLite store with the reference agents: each probe family separates what it should.

import fc from 'fast-check';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, writeMatrixCsv } from '../src/index.js';
import type { McqPayload } from '../src/core/index.js';
import { loadSuite } from '../src/index.js';
import { generateTomItems, renderStory } from '../src/suites/index.js';
import { answerWorldQuestion, type WorldQuestion, type WorldStory } from '../src/worlds/index.js';
import { simulatePanel } from '../src/studies/audit/index.js';
import {
  ALTERATIONS,
  alterStory,
  binomialUpperTail,
  chanceFlagRate,
  lengthOnly,
  probeItems,
  trackedBeliefs,
  type ProbeSummary,
} from '../src/studies/probes/index.js';
import { probeReportSection } from '../src/studies/probes/report/section.js';
import { runCli } from './helpers/run-cli.js';

const AGENTS = ['agent:oracle', 'agent:reality', 'agent:first-option', 'agent:options-only'];

async function probe(args: string[]): Promise<{ runs: ProbeSummary[]; db: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'probes-'));
  const db = join(dir, 'p.db');
  const r = await runCli(['probe', '--db', db, '--model', ...AGENTS, '--json', ...args]);
  expect(r.code, r.stderr).toBe(0);
  return { ...(JSON.parse(r.stdout) as { runs: ProbeSummary[] }), db, dir };
}

const sally: WorldStory = {
  room: 'kitchen',
  agents: ['Sally', 'Anne'],
  objects: ['marble'],
  containers: ['basket', 'box', 'jar'],
  events: [
    { kind: 'enter', agent: 'Sally' },
    { kind: 'enter', agent: 'Anne' },
    { kind: 'place', object: 'marble', container: 'basket' },
    { kind: 'exit', agent: 'Sally' },
    { kind: 'move', agent: 'Anne', object: 'marble', container: 'box' },
  ],
};
const render = (story: WorldStory) => (events: WorldStory['events']) => renderStory({ ...story, events }).split('\n');

describe('sensitivity alterations: the tracker gives the altered answer', () => {
  it('Sally-Anne: transparent, present and told make the belief true; untrustworthy and an unseen move leave it', () => {
    const q1: WorldQuestion & { kind: 'belief' } = { kind: 'belief', chain: ['Sally'], object: 'marble' };
    const q2: WorldQuestion & { kind: 'belief' } = { kind: 'belief', chain: ['Sally', 'Anne'], object: 'marble' };
    const answer = (a: (typeof ALTERATIONS)[number], q: typeof q1) => {
      const altered = alterStory(sally, q, a, render(sally))!;
      return answerWorldQuestion(altered.story, q);
    };
    expect(answerWorldQuestion(sally, q1)).toBe('basket');
    expect(ALTERATIONS.map((a) => answer(a, q1))).toEqual(['box', 'box', 'box', 'basket', 'basket']);
    // Sally's belief about Anne's: the private telling updates it (both know of the exchange).
    expect(ALTERATIONS.map((a) => answer(a, q2))).toEqual(['box', 'box', 'box', 'basket', 'basket']);
    const unseen = alterStory(sally, q1, 'unseen-move', render(sally))!;
    expect(answerWorldQuestion(unseen.story, { kind: 'reality', object: 'marble' })).toBe('jar');
    expect(unseen.sentences.at(-1)).toMatch(/nobody was watching, a cleaner moved the marble to the jar/);
    expect(alterStory(sally, q1, 'told', render(sally))!.sentences.at(-1)).toBe(
      'Anne told Sally in private that the marble is in the box.',
    );
    // Nobody but Anne knows where the marble is: nobody can tell Anne about Sally's belief.
    expect(alterStory(sally, { kind: 'belief', chain: ['Anne', 'Sally'], object: 'marble' }, 'told', render(sally))).toBeUndefined();
  });

  it('on generated stories of orders 1-4, present gives reality and the holds keep the answer (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 1, max: 4 }), (seed, order) => {
        const none = { reality: 0, memory: 0, knowledge: 0, perception: 0, 'belief-1': 0, 'belief-2': 0, 'belief-3': 0, 'belief-4': 0 };
        const [item] = generateTomItems({ count: 1, seed, mix: { ...none, [`belief-${order}`]: 1 } });
        const { story, question } = item!.payload.world as { story: WorldStory; question: WorldQuestion & { kind: 'belief' } };
        const truth = answerWorldQuestion(story, { kind: 'reality', object: question.object });
        const before = answerWorldQuestion(story, question);
        const present = alterStory(story, question, 'present', render(story))!;
        expect(answerWorldQuestion(present.story, question)).toBe(truth);
        for (const a of ['untrustworthy', 'unseen-move'] as const) {
          const altered = alterStory(story, question, a, render(story));
          if (altered) expect(answerWorldQuestion(altered.story, question)).toBe(before);
        }
        const transparent = alterStory(story, question, 'transparent', render(story))!;
        expect(answerWorldQuestion(transparent.story, question)).toBe(truth);
      }),
      { numRuns: 120, seed: 35 },
    );
  });
});

describe('invariance variants', () => {
  it('rotations put the answer once in each position; swaps keep the tracker answer; the world is renamed with the text', () => {
    const items = generateTomItems({ count: 30, seed: 4 });
    const probes = probeItems('invariance', 'generated-tom', items, { permutations: 9, swaps: 2, paraphrases: 6, seed: 1, count: 0 });
    for (const p of probes) {
      const perms = p.payload.variants.filter((v) => v.kind === 'original' || v.kind === 'permutation');
      const k = perms[0]!.mcq.options.length;
      expect(perms.map((v) => v.mcq.answerIndex).sort()).toEqual(Array.from({ length: k }, (_, i) => i));
      for (const v of p.payload.variants) {
        const w = v.mcq.world as { story: WorldStory; question: WorldQuestion };
        const expected = answerWorldQuestion(w.story, w.question).toLowerCase();
        expect(v.mcq.options[v.mcq.answerIndex]!.toLowerCase()).toBe(expected);
        for (const agent of w.story.agents) expect(v.mcq.context).toContain(agent);
      }
      expect(p.payload.variants.filter((v) => v.kind === 'paraphrase')).toHaveLength(5);
      expect(p.payload.variants.filter((v) => v.kind === 'names')).toHaveLength(2);
    }
  });

  it('names in a released item are found in its question and story and swapped everywhere', async () => {
    const { items } = await loadSuite('tomi', { data: 'tests/fixtures/data/tomi', seed: 0 }, 10);
    const probes = probeItems('invariance', 'tomi', items as never, { permutations: 2, swaps: 1, paraphrases: 1, seed: 0, count: 0 });
    const swapped = probes.flatMap((p) => p.payload.variants.filter((v) => v.kind === 'names'));
    expect(swapped.length).toBeGreaterThan(5);
    for (const p of probes) {
      const original = p.payload.variants[0]!.mcq;
      const names = p.payload.variants.find((v) => v.kind === 'names')?.mcq;
      if (!names) continue;
      expect(names.question).not.toBe(original.question);
      expect(names.options[names.answerIndex]).toBe(original.options[original.answerIndex]);
    }
  });
});

describe('mindscope probe with the reference agents', () => {
  it('invariance: agent:oracle robust on every variant, agent:first-option caught by the permutation probe', async () => {
    const { runs } = await probe(['--family', 'invariance', '--limit', '24', '--permutations', '3', '--swaps', '1', '--paraphrases', '4']);
    const s = runs[0]!.invariance!.subjects;
    const of = (name: string) => s.find((x) => x.subject === name)!;
    expect(of('agent:oracle').robustAccuracy).toBe(1);
    expect(of('agent:oracle').flipRate).toBe(0);
    expect(Object.values(of('agent:oracle').byKind).every((k) => k.accuracy === 1)).toBe(true);
    expect(of('agent:oracle').paraphrase.spread).toBe(0);
    // Every rotation set puts the answer once in each position: the oracle's picks are uniform.
    expect(of('agent:oracle').positional.every((b) => b.statistic === 0 && b.p === 1)).toBe(true);
    expect(of('agent:first-option').positional.every((b) => b.counts.slice(1).every((c) => c === 0) && b.p < 0.01)).toBe(true);
    expect(of('agent:first-option').flipRate).toBeGreaterThan(0.2);
    expect(of('agent:first-option').robustAccuracy).toBe(0);
    // The options-only agent reads no position: no flip, no positional bias.
    expect(of('agent:options-only').flipRate).toBe(0);
  });

  it('sensitivity: agent:oracle right on every alteration; agent:reality fails where the belief stays false', async () => {
    const { runs } = await probe(['--family', 'sensitivity', '--count', '3']);
    const s = runs[0]!.sensitivity!;
    const of = (name: string) => s.find((x) => x.subject === name)!;
    const oracle = of('agent:oracle');
    expect(oracle.items).toBe(12);
    expect(oracle.alterations.map((a) => a.alteration)).toEqual([...ALTERATIONS]);
    expect(oracle.alterations.every((a) => a.accuracy === 1 && a.shortcut === 0)).toBe(true);
    expect(Object.keys(oracle.alterations[0]!.byOrder)).toEqual(['1', '2', '3', '4']);
    expect(oracle.alterations.find((a) => a.alteration === 'present')!.flips).toBeGreaterThan(0);
    const reality = of('agent:reality');
    // An unseen move makes every belief false: the reality error fails all of them, right on the true-belief originals.
    const unseen = reality.alterations.find((a) => a.alteration === 'unseen-move')!;
    expect(unseen.accuracy).toBe(0);
    expect(unseen.shortcut).toBeGreaterThan(0);
    expect(reality.flaggedItems.length).toBeGreaterThan(0);
    expect(reality.alterations.find((a) => a.alteration === 'untrustworthy')!.accuracy).toBeLessThan(1);
  });

  it('shortcut baselines: agent:options-only flagged exactly on the items whose answer is the longest option (three options); two-option items never flagged per item; flags feed irt calibrate and the audit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'probes-flags-'));
    const flagsFile = join(dir, 'flags.json');
    const { runs } = await probe([
      '--family',
      'shortcut',
      '--suite',
      'generated-tom',
      '--limit',
      '60',
      '--trials',
      '2',
      '--flags-out',
      flagsFile,
    ]);
    const s = runs[0]!.shortcut!;
    const { items } = await loadSuite('generated-tom', { seed: 0, count: 60 });
    const threeOptions = (i: (typeof items)[number]) => (i.payload as McqPayload).options.length === 3;
    expect(items.filter(threeOptions).length).toBe(45);
    // Longest option with ties to the alphabetically first text: the agent's rule.
    const longest = (p: McqPayload) => [...p.options].sort((a, b) => b.length - a.length || (a < b ? -1 : 1))[0];
    const expected = items
      .filter((i) => threeOptions(i) && longest(i.payload as McqPayload) === i.answer)
      .map((i) => i.id)
      .sort();
    // Two-option items the agent gets right are not flagged: three variants cannot reach p < 0.05.
    expect(items.some((i) => !threeOptions(i) && longest(i.payload as McqPayload) === i.answer)).toBe(true);
    const tom = s.suites.find((x) => x.suite === 'generated-tom')!;
    const flaggedBy = (subject: string) =>
      s.flags
        .filter((f) => f.subject === subject)
        .map((f) => f.id)
        .sort();
    expect(flaggedBy('agent:options-only')).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(60);
    for (const a of ['agent:oracle', 'agent:reality', 'agent:first-option']) expect(flaggedBy(a)).toEqual([]);
    expect(tom.items).toBe(60);
    expect(tom.flagged).toBe(expected.length);
    // Three variants: a uniform guesser is flagged on 1/27 of the 45 three-option items, never on the 15 two-option ones.
    expect(tom.subjects.find((x) => x.subject === 'agent:options-only')!.chanceShare).toBeCloseTo(45 / 27 / 60, 12);
    expect(tom.subjects.find((x) => x.subject === 'agent:oracle')!.byKind['question-only']).toBe(0);
    // The flag file lists the flagged items; irt calibrate and the audit leave them out.
    const file = JSON.parse(readFileSync(flagsFile, 'utf8')) as { items: Array<{ suite: string; id: string }> };
    expect(file.items.map((i) => i.id).sort()).toEqual(expected);
    const panel = simulatePanel({ models: 12, benchmarks: [{ name: 'tomi', items: { belief: 60 } }], structure: 'single', seed: 2 })
      .matrices[0]!.matrix;
    const matrix = { ...panel, items: panel.items.map((it, k) => ({ ...it, suite: 'generated-tom', itemId: items[k]!.id })) };
    writeMatrixCsv(join(dir, 'm.csv'), matrix);
    const cal = await runCli([
      'irt',
      'calibrate',
      '--matrix',
      join(dir, 'm.csv'),
      '--model',
      '1pl',
      '--no-validate',
      '--out',
      join(dir, 'bank.json'),
      '--exclude-items',
      flagsFile,
      '--json',
    ]);
    expect(cal.code, cal.stderr).toBe(0);
    expect(
      (JSON.parse(cal.stdout) as { items: number; dropped: number }).items + (JSON.parse(cal.stdout) as { dropped: number }).dropped,
    ).toBe(60 - expected.length);
    expect(cal.stderr).toContain(`${expected.length} of 60 items left out`);
    const audit = await runCli([
      'audit',
      '--matrix',
      `generated-tom=${join(dir, 'm.csv')}`,
      '--exclude-items',
      flagsFile,
      '--structure',
      'pca',
      '--bootstrap',
      '20',
      '--seeds',
      '1',
      '--json',
    ]);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stderr).toContain(`generated-tom: ${expected.length} of 60 items left out`);
    // 3 of 3 right at chance 1/3 gives 1/27; a two-option item of three variants cannot reach 0.05.
    expect(binomialUpperTail(3, 3, 1 / 3)).toBeCloseTo(1 / 27, 12);
    expect(chanceFlagRate(3, 3, 0.05)).toBeCloseTo(1 / 27, 12);
    expect(chanceFlagRate(3, 2, 0.05)).toBe(0);
    // Two-option items (ToMi): replicates do not add evidence, so nothing is flagged per item,
    // however often the deterministic subject repeats its right answer.
    const two = await probe([
      '--family',
      'shortcut',
      '--suite',
      'tomi',
      '--data',
      'tests/fixtures/data/tomi',
      '--limit',
      '20',
      '--trials',
      '3',
    ]);
    const twoSummary = two.runs[0]!.shortcut!;
    expect(twoSummary.flags).toEqual([]);
    const optionsOnly = twoSummary.suites[0]!.subjects.find((x) => x.subject === 'agent:options-only')!;
    expect(optionsOnly.byKind['options-only']).toBeGreaterThan(0);
    expect(optionsOnly.chanceShare).toBe(0);
    expect(lengthOnly({ context: '', question: '', options: ['ab', 'abc', 'a'], answerIndex: 1 })).toEqual({
      longest: true,
      shortest: false,
    });
  });

  it('explicit belief tracking: agent:oracle lists the tracked state, agent:reality misses the false beliefs; the report has the tables', async () => {
    const { runs, db } = await probe(['--family', 'beliefs', '--count', '4', '--max-order', '3']);
    const s = runs[0]!.beliefs!;
    const of = (name: string) => s.find((x) => x.subject === name)!;
    expect(of('agent:oracle').byOrder.map((o) => [o.order, o.precision, o.recall, o.labelling])).toEqual([
      [1, 1, 1, 1],
      [2, 1, 1, 1],
      [3, 1, 1, 1],
    ]);
    const reality = of('agent:reality');
    expect(reality.byOrder.every((o) => o.recall < 1)).toBe(true);
    // What reality lists right it labels right (it calls every belief true, and those it gets are).
    expect(reality.byOrder.every((o) => Number.isNaN(o.labelling) || o.labelling === 1)).toBe(true);
    expect(Object.values(reality.missedByHolder).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    // It misses only false beliefs: every true one it lists.
    expect(reality.byOrder.every((o) => o.missedTrue === 0 && o.missedFalse > 0)).toBe(true);
    expect(of('agent:oracle').byOrder.every((o) => o.missedTrue + o.missedFalse === 0)).toBe(true);
    expect(of('agent:first-option').unreadable).toBe(of('agent:first-option').checkpoints);
    const store = await openStore(db);
    try {
      const html = await probeReportSection(store, runs[0]!.runId);
      expect(html).toContain('Explicit belief tracking');
      expect(html).toContain('<td>agent:oracle</td><td>1</td>');
    } finally {
      await store.close();
    }
  });
});

describe('the registered probe suites', () => {
  it('mindscope run probe-sensitivity, then the run report has the probe section', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'probes-run-'));
    const db = join(dir, 'r.db');
    const run = await runCli([
      'run',
      'probe-sensitivity',
      '--limit',
      '8',
      '--model',
      'agent:oracle',
      'agent:reality',
      '--db',
      db,
      '--run-id',
      'sens',
      '--quiet',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const report = await runCli(['report', '--db', db, '--run-id', 'sens', '--out', join(dir, 'report'), '--json']);
    expect(report.code, report.stderr).toBe(0);
    const html = readFileSync((JSON.parse(report.stdout) as { path: string }).path, 'utf8');
    expect(html).toContain('Validity probes');
    expect(html).toContain('Sensitivity: accuracy on the altered stories');
    // The oracle is robust on every probe item: its probe score is 1 on all 8.
    const summary = await runCli(['probe', '--db', db, '--run-id', 'sens', '--json']);
    const oracle = (JSON.parse(summary.stdout) as { runs: ProbeSummary[] }).runs[0]!.sensitivity!.find(
      (x) => x.subject === 'agent:oracle',
    )!;
    expect(oracle.items).toBe(8);
    expect(oracle.alterations.every((a) => a.accuracy === 1)).toBe(true);
  });
});

describe('tracked beliefs', () => {
  it('Sally-Anne after the move: every chain to order 2 with its truth', () => {
    const b = trackedBeliefs(sally, sally.events.length, 2).map((p) => [p.holder.join('>'), p.container, p.true]);
    expect(b).toEqual([
      ['Sally', 'basket', false],
      ['Anne', 'box', true],
      ['Sally>Anne', 'basket', false],
      ['Anne>Sally', 'basket', false],
    ]);
  });
});
