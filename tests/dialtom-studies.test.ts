// DialToM's studies beyond the benchmark tables: distractor clustering as the paper defines it
// (Table 21), human participants imported as a subject (their cells, exact intervals, positions
// and clustering), the dataset statistics (Table 2), the written-inference task (the prompt,
// elicitation through the call cache, the dialogue-anchored judge, BERTScore), and the pairwise
// trace judge. Expected values are computed here from the fixture files, independently of the
// code under test; the paper's own numbers are used where its inputs are printed.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  bertScoreInferences,
  createRegistry,
  definePlugin,
  defineProvider,
  elicitInferences,
  importHumanAnswers,
  judgeInferences,
  judgeTracePairs,
  loadSuite,
  openStore,
  type ChatModel,
  type Item,
} from '../src/index.js';
import type { McqPayload } from '../src/core/index.js';
import {
  dialtomDatasetStats,
  dialtomRunResults,
  distractorClustering,
  parseChoices,
  parseWrittenDialogues,
  parseWrittenInferences,
  positionalBias,
  turnWords,
  type ItemWrongChoices,
  writtenInferencePrompt,
} from '../src/studies/dialtom/index.js';
import { wilsonInterval } from '../src/stats/index.js';
import { evaluate } from './helpers/evaluate.js';
import { runCli } from './helpers/run-cli.js';
import { llamaInstalled } from './helpers/llama.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'data');
const DATA = join(FIXTURES, 'dialtom', 'data');
const DOMAINS = ['MI', 'ESC', 'PFG'];

/** Normalised entropy over k categories, written out. */
function hn(counts: number[]): number {
  const n = counts.reduce((a, b) => a + b, 0);
  const h = counts.filter((c) => c > 0).reduce((s, c) => s - (c / n) * Math.log(c / n), 0);
  return h / Math.log(counts.length);
}

describe('distractor clustering (Table 21)', () => {
  it('per item over its distractors, weighted by wrong answers, items with two or more wrong answers only', () => {
    const items: ItemWrongChoices[] = [
      { item: 'a', distractors: 3, choices: [0, 0, 0] }, // all on one distractor: 0
      { item: 'b', distractors: 3, choices: [0, 1, 2] }, // spread evenly: 1
      { item: 'c', distractors: 3, choices: [1, 1, 2, 0] },
      { item: 'd', distractors: 3, choices: [2] }, // one wrong answer: left out
      { item: 'e', distractors: 3, choices: [] },
    ];
    const expected = (3 * 0 + 3 * 1 + 4 * hn([1, 2, 1])) / 10;
    expect(distractorClustering(items)).toEqual({ items: 5, itemsUsed: 3, incorrect: 10, incorrectAll: 11, normalizedEntropy: expected });
    expect(distractorClustering([{ item: 'x', distractors: 3, choices: [1] }]).normalizedEntropy).toBeNull();
    expect(() => distractorClustering([{ item: 'x', distractors: 3, choices: [3, 1] }])).toThrow(
      /item x: distractor 3 is not one of its 3/,
    );
  });

  it("pools domains as the paper's Table 21 does: the wrong-answer-weighted mean of the domains (0.094, 0.033, 0.125 -> 0.083)", () => {
    // The printed rows: MI 590 wrong answers at 0.094, ESC 669 at 0.033, PFG 638 at 0.125; pooled 1,897 at 0.083.
    expect(((0.094 * 590 + 0.033 * 669 + 0.125 * 638) / 1897).toFixed(3)).toBe('0.083');
    // The same identity holds for the function: pooled over all items = weighted mean of the groups.
    const groups = [0, 1, 2].map((g) =>
      Array.from({ length: 7 }, (_, i) => ({
        item: `${g}-${i}`,
        distractors: 3,
        choices: Array.from({ length: (i % 4) + g }, (_, k) => (k * (i + g)) % 3),
      })),
    );
    const parts = groups.map(distractorClustering);
    const pooled = distractorClustering(groups.flat());
    const weighted = parts.reduce((s, p) => s + p.incorrect * (p.normalizedEntropy ?? 0), 0) / parts.reduce((s, p) => s + p.incorrect, 0);
    expect(pooled.normalizedEntropy).toBeCloseTo(weighted, 12);
  });

  it("reads participants' choices as letters, the correct one not counted", () => {
    const csv = 'domain,item,choice,correct\nMI,1,A,B\nMI,1,A,B\nMI,1,B,B\nMI,1,D,B\nESC,2,C,C\n';
    const by = parseChoices(csv, 'c.csv');
    // A is distractor 0 and D distractor 2 of item 1 (B is the answer).
    expect(by.get('MI')).toEqual([{ item: '1', distractors: 3, choices: [0, 0, 2] }]);
    expect(by.get('ESC')).toEqual([{ item: '2', distractors: 3, choices: [] }]);
    expect(() => parseChoices('domain,item,choice,correct\nMI,1,F,B\n', 'c.csv')).toThrow(/c\.csv:2: choice must be a letter A-D, not "F"/);
  });
});

describe('human participants as a subject', () => {
  it('enter a run as human:NAME, one replicate each, and every DialToM analysis reads them', async () => {
    const store = await openStore(':memory:');
    await evaluate({ store, suites: ['dialtom-retrospective'], models: ['agent:answer-key'], data: FIXTURES, runId: 'h' });
    // Three participants: p1 always answers A, p2 always the first wrong option (by its text), p3 the right letter.
    const rows: string[] = ['suite,item,participant,answer'];
    const truth = new Map<string, { correct: number; wrongFirst: number; options: string[] }>();
    for (const d of DOMAINS) {
      for (const raw of JSON.parse(readFileSync(join(DATA, `${d}_retrospective_verified.json`), 'utf8'))) {
        const id = `${d}/${raw.id}/${raw.state}`;
        const letters = Object.keys(raw.options[raw.state]).sort();
        const options = letters.map((l) => raw.options[raw.state][l] as string);
        const correct = letters.indexOf(raw.correct_option[raw.state]);
        const wrongFirst = correct === 0 ? 1 : 0;
        truth.set(id, { correct, wrongFirst, options });
        const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
        rows.push(`dialtom-retrospective,${quote(id)},p1,A`, `dialtom-retrospective,${quote(id)},p2,${quote(options[wrongFirst]!)}`);
        rows.push(`dialtom-retrospective,${quote(id)},p3,${'ABCD'[correct]}`);
      }
    }
    rows.push('dialtom-retrospective,"MI/5, 2/Knowledge",p4,');
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-humans-'));
    const file = join(dir, 'lay.csv');
    writeFileSync(file, `${rows.join('\n')}\n`);
    const r = await importHumanAnswers({ store, runId: 'h', name: 'lay', file });
    expect(r).toMatchObject({ subject: 'human:lay', participants: ['p1', 'p2', 'p3'], trials: 36, blank: 1 });
    const res = await dialtomRunResults(store, 'h');
    for (const d of DOMAINS) {
      const ids = [...truth.keys()].filter((k) => k.startsWith(`${d}/`));
      const right = ids.reduce((n, id) => n + (truth.get(id)!.correct === 0 ? 1 : 0) + 0 + 1, 0);
      const cell = res.cells.find((c) => c.model === 'human:lay' && c.domain === d && c.attribute === 'all')!;
      // Three participants per item: items, not trials, are the unit of the intervals.
      expect(cell).toMatchObject({ items: ids.length, trials: ids.length * 3, correct: right });
      expect(cell.rate).toBe(right / (ids.length * 3));
      expect([cell.exactLower, cell.exactUpper]).toEqual([Number.NaN, Number.NaN]);
      // Never narrower than the 36 trials taken as independent.
      const naive = wilsonInterval(right, ids.length * 3);
      expect(cell.lower).toBeLessThanOrEqual(Math.min(naive.lower, cell.rate));
      expect(cell.upper).toBeGreaterThanOrEqual(Math.max(naive.upper, cell.rate));
      // Positions: p1 always A; p2 the first wrong option; p3 the right one.
      const counts = [0, 0, 0, 0];
      for (const id of ids) {
        counts[0]!++;
        counts[truth.get(id)!.wrongFirst]!++;
        counts[truth.get(id)!.correct]!++;
      }
      const pos = res.positions.find((p) => p.model === 'human:lay' && p.domain === d)!;
      expect(pos.counts).toEqual(counts);
      expect(positionalBias([{ domain: d, counts: pos.counts }])[0]!.chi2).toBeGreaterThanOrEqual(0);
      // Clustering per item over the participants: p1's A (when wrong) and p2's first wrong option.
      const perItem = ids.map((id) => {
        const t = truth.get(id)!;
        const wrong = [t.wrongFirst];
        if (t.correct !== 0) wrong.push(0);
        const distractorOf = (k: number) => (k < t.correct ? k : k - 1);
        const c = [0, 0, 0];
        for (const k of wrong) c[distractorOf(k)]!++;
        return c;
      });
      const used = perItem.filter((c) => c.reduce((a, b) => a + b, 0) >= 2);
      const w = 2 * used.length;
      const expected = used.length ? used.reduce((s, c) => s + 2 * hn(c), 0) / w : null;
      const got = res.distractors.find((x) => x.model === 'human:lay' && x.domain === d)!;
      expect(got.itemsUsed).toBe(used.length);
      if (expected === null) expect(got.normalizedEntropy).toBeNull();
      else expect(got.normalizedEntropy).toBeCloseTo(expected, 12);
    }
    // The model is still there, and humans are not pooled into "all models".
    expect(res.cells.some((c) => c.model === 'agent:answer-key' && c.rate === 1)).toBe(true);
    expect(res.distractors.find((x) => x.model === 'all models')?.incorrectAll).toBe(0);
    // Refusals: an item not in the run, an answer that is no option, the same name from another file.
    writeFileSync(join(dir, 'bad1.csv'), 'suite,item,answer\ndialtom-retrospective,nope,A\n');
    await expect(importHumanAnswers({ store, runId: 'h', name: 'x', file: join(dir, 'bad1.csv') })).rejects.toThrow(
      /bad1\.csv:2: item "nope" of suite dialtom-retrospective is not in run h/,
    );
    writeFileSync(join(dir, 'bad2.csv'), 'suite,item,answer\ndialtom-retrospective,"MI/5, 2/Knowledge",I think so\n');
    await expect(importHumanAnswers({ store, runId: 'h', name: 'y', file: join(dir, 'bad2.csv') })).rejects.toThrow(
      /answer "I think so" to MI\/5, 2\/Knowledge is neither an option letter \(A-D\) nor an option's text/,
    );
    writeFileSync(join(dir, 'other.csv'), 'suite,item,answer\ndialtom-retrospective,"MI/5, 2/Knowledge",B\n');
    await expect(importHumanAnswers({ store, runId: 'h', name: 'lay', file: join(dir, 'other.csv') })).rejects.toThrow(
      /already holds human:lay from another file/,
    );
    await store.close();
  });
});

describe('dataset statistics (Table 2)', () => {
  it('contexts, words and turns per context and words per turn, counted here from the files', async () => {
    const load = async (s: string) => (await loadSuite(s, { data: FIXTURES, seed: 0 })).items as Item<McqPayload>[];
    const stats = dialtomDatasetStats(await load('dialtom-retrospective'), await load('dialtom-prospective'));
    for (const d of DOMAINS) {
      const raw = JSON.parse(readFileSync(join(DATA, `${d}_retrospective_verified.json`), 'utf8')) as Array<{ id: string; ctx: string[] }>;
      const windows = new Map(raw.map((r) => [r.id, r.ctx]));
      // The paper's counts: words of each "speaker: text" line, the label included; a turn is an
      // exchange of two utterances, floor(utterances / 2) per window.
      const words = [...windows.values()].map((ctx) => ctx.reduce((s, t) => s + t.trim().split(/\s+/).length, 0));
      const turns = [...windows.values()].map((ctx) => Math.floor(ctx.length / 2));
      const row = stats.find((s) => s.domain === d)!;
      expect(row.contexts).toBe(windows.size);
      expect(row.wordsPerContext).toBeCloseTo(words.reduce((a, b) => a + b, 0) / windows.size, 10);
      expect(row.turnsPerContext).toBeCloseTo(turns.reduce((a, b) => a + b, 0) / windows.size, 10);
      expect(row.utterancesPerContext).toBeCloseTo([...windows.values()].reduce((a, c) => a + c.length, 0) / windows.size, 10);
      // Table 2's identity: words per turn = words per context / turns per context.
      expect(row.wordsPerTurn).toBeCloseTo(row.wordsPerContext / row.turnsPerContext, 10);
      expect(row.retrospective).toBe(4);
      expect(row.prospective).toBe(4);
    }
    expect(stats.at(-1)!.domain).toBe('overall');
    expect(turnWords('counselor: Okay. So, where did you')).toBe(6);
    // The fixture's MI windows: 55 utterances, 27 turns, 781 words over 4 windows.
    const mi = stats.find((s) => s.domain === 'MI')!;
    expect([mi.utterancesPerContext, mi.turnsPerContext, mi.wordsPerContext]).toEqual([13.75, 6.75, 195.25]);
  });
});

/** A provider whose models write a fixed inference and count their calls (not local: calls are cached). */
function scribes(calls: string[]) {
  return defineProvider({
    prefix: 'scribe',
    form: 'scribe:NAME',
    create: (name, spec): ChatModel => ({
      spec,
      provider: 'scribe',
      model: name,
      endpoint: spec,
      local: false,
      async chat(req) {
        const text = req.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
        calls.push(text);
        if (name === 'judge') {
          // PA = 3 when the reference starts like the inference, CA = 2 when the dialogue is there, SA = 1.
          const reference = /Human Inference: (.*)/.exec(text)![1]!;
          const response = /AI Inference: (.*)/.exec(text)![1]!;
          const ca = /Source Dialogue:\n\S/.test(text) ? 2 : 0;
          return {
            text: JSON.stringify({ pa: reference.split(' ')[1] === response.split(' ')[1] ? 3 : 0, ca, sa: 1 }),
            usage: { inputTokens: 1, outputTokens: 1 },
            latencyMs: 0,
          };
        }
        if (name === 'traces') {
          // Scores each trace by the attributes it names: 2 for four or more, 0 otherwise.
          const a = text.split('— TRACE A —')[1]!.split('— TRACE B —')[0]!;
          const b = text.split('— TRACE B —')[1]!;
          const score = (t: string) => ((t.match(/belief|desire|intention|emotion|knowledge|trust/gi) ?? []).length >= 4 ? 2 : 0);
          const out: Record<string, number> = {};
          for (const d of ['coverage', 'elimination', 'verification', 'structure'])
            Object.assign(out, { [`a_${d}`]: score(a), [`b_${d}`]: score(b) });
          return { text: JSON.stringify(out), usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 0 };
        }
        const prefix = /should always start with "([^"]+)"/.exec(text)![1]!;
        return {
          text: `${prefix} ${name === 'verbose' ? 'that the talk helps.\nSecond line.' : 'stressed about money.'}`,
          usage: { inputTokens: 1, outputTokens: 1 },
          latencyMs: 0,
        };
      },
    }),
  });
}

describe('the written-inference task', () => {
  const references = parseWrittenInferences(readFileSync(join(DATA, 'written_inference.csv'), 'utf8'));
  const combined = JSON.parse(readFileSync(join(DATA, 'combined_written_data.json'), 'utf8'));
  const dialogues = parseWrittenDialogues(combined);

  it("asks with benchmark.py's written prompt, roles named, and the state's prefix", () => {
    const unit = [...references.values()].find((r) => r.unit.state === 'Trust')?.unit ?? [...references.values()][0]!.unit;
    const ctx = combined[unit.dataset][unit.subId].ctx as string[];
    const roles: Record<string, [string, string]> = {
      MI: ['Counselor', 'Client'],
      ESC: ['Supporter', 'Seeker'],
      PFG: ['Persuader', 'Persuadee'],
    };
    const [a1, a2] = roles[unit.dataset]!;
    const prefix: Record<string, string> = {
      Belief: 'I believe',
      Desires: 'I want',
      Intentions: 'I will',
      Emotions: 'I feel',
      Knowledge: 'I know',
      Trust: `I view the ${a1} as`,
    };
    const conversation = ctx
      .join('\n')
      .replaceAll('agent 1', a1)
      .replaceAll('agent 2', a2)
      .replaceAll('agent1', a1)
      .replaceAll('agent2', a2);
    expect(writtenInferencePrompt(unit.dataset, unit.state, ctx)).toBe(
      `\nYou are an expert in Theory of Mind reasoning.\n\nTask:\nYou will be provided with a context of a conversation between ${a1} and ${a2}.\n\nYour goal is to accurately infer the ${unit.state} mental state of the ${a2} in one line.\nThe correct option must be consistent with the provided conversational context.\n\nConversation Context:\n${conversation}\n\nInstruction\nOutput only a line inference. Your response should always start with "${prefix[unit.state]}". Do not add explanations or other verbosity. STRICTLY FOLLOW THIS FORMAT AND OUTPUT ONLY ONE LINE.\n\nAnswer:\n`,
    );
    expect(conversation).not.toMatch(/agent ?[12]/);
  });

  it('elicits one inference per model and unit through the call cache, then judges it against each reference with the dialogue', async () => {
    const calls: string[] = [];
    const registry = createRegistry([definePlugin({ name: 'scribes', providers: [scribes(calls)] })]);
    const store = await openStore(':memory:');
    const rows = await elicitInferences({ store, models: ['scribe:plain', 'scribe:verbose'], references, dialogues, registry });
    expect(rows).toHaveLength(2 * references.size);
    expect(calls).toHaveLength(2 * references.size);
    expect(rows.find((r) => r.model === 'scribe:verbose')!.inference).not.toMatch(/\n/);
    expect(rows.filter((r) => r.state === 'Emotions').every((r) => r.inference.startsWith('I feel'))).toBe(true);
    // Asked again: the cache answers, no new calls.
    await elicitInferences({ store, models: ['scribe:plain'], references, dialogues, registry });
    expect(calls).toHaveLength(2 * references.size);
    const before = calls.length;
    const judged = await judgeInferences({
      store,
      rubricPath: 'dialtom-inference',
      judges: ['scribe:judge'],
      hypotheses: rows,
      references,
      dialogues,
      registry,
    });
    const plain = judged.find((j) => j.model === 'scribe:plain')!;
    expect(calls.length - before).toBe(2 * [...references.values()].reduce((n, r) => n + r.references.length, 0));
    // Independently: PA per unit = 3 x the share of references whose second word matches; CA 2 (the dialogue was shown); SA 1.
    const pa = [...references.values()].map((r) => {
      const hyp = rows.find(
        (x) => x.model === 'scribe:plain' && x.subId === r.unit.subId && x.dataset === r.unit.dataset && x.state === r.unit.state,
      )!;
      return (r.references.filter((ref) => ref.split(' ')[1] === hyp.inference.split(' ')[1]).length * 3) / r.references.length;
    });
    expect(plain.units).toBe(references.size);
    expect(plain.means.pa).toBeCloseTo(pa.reduce((a, b) => a + b, 0) / pa.length, 12);
    expect(plain.means.ca).toBe(2);
    expect(plain.means.sa).toBe(1);
    expect(plain.total).toBeCloseTo(plain.means.pa! + 3, 12);
    // BERTScore with the fixture GGUF (when node-llama-cpp is installed): an inference equal to
    // its only reference scores 1.
    if (llamaInstalled) {
      const unit = [...references.values()][0]!;
      const same = await bertScoreInferences({
        hypotheses: [{ ...unit.unit, model: 'copy', inference: unit.references[0]! }],
        references: new Map([
          [`${unit.unit.dataset}\u0000${unit.unit.state}\u0000${unit.unit.subId}`, { unit: unit.unit, references: [unit.references[0]!] }],
        ]),
        modelPath: join(import.meta.dirname, 'fixtures', 'models', 'stories260k-f32.gguf'),
      });
      expect(same[0]).toMatchObject({ model: 'copy', units: 1, baseline: null });
      expect(same[0]!.f1).toBeCloseTo(1, 10);
    }
    await store.close();
  }, 120_000);

  it('the CLI writes the inferences and scores them, saying why BERTScore is skipped without a model', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-written-'));
    const out = join(dir, 'inf.csv');
    const r = await runCli(['dialtom', 'infer', '--data', FIXTURES, '--model', 'agent:oracle', '--out', out, '--db', join(dir, 'm.db')]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/wrote 11 inference\(s\) from 1 model\(s\)/);
    const a = await runCli(['analyze', 'dialtom', '--references', join(DATA, 'written_inference.csv'), '--inferences', out]);
    expect(a.code).toBe(0);
    expect(a.stdout).toMatch(/agent:oracle\s+│?\s*11/);
    expect(a.stdout).toMatch(/BERTScore: not computed: no embedding model given \(--bertscore-model FILE\.gguf/);
  });
});

describe('the pairwise trace judge (K.5)', () => {
  it('shows the two traces in a seeded order and maps the scores back to their sources', async () => {
    const calls: string[] = [];
    const registry = createRegistry([definePlugin({ name: 'scribes', providers: [scribes(calls)] })]);
    const items = (await loadSuite('dialtom-prospective', { data: FIXTURES, seed: 0 })).items as Item<McqPayload>[];
    const rich = new Map(items.map((i) => [i.id, 'Belief fits, desire fits, intention fits, emotion fits, so the second option.']));
    const poor = new Map(items.map((i) => [i.id, 'This one just sounds about right to me.']));
    const store = await openStore(':memory:');
    const r = await judgeTracePairs({
      store,
      items,
      traces: { a: rich, b: poor },
      names: { a: 'teacher-qzx', b: 'teacher-jvw' },
      judges: ['scribe:traces'],
      registry,
      seed: 3,
    });
    expect(r.items).toBe(items.length);
    // Both orders occur, and the judge never sees which source is which.
    expect(new Set(r.perItem.map((p) => p.swapped)).size).toBe(2);
    expect(calls.every((c) => !/teacher-(qzx|jvw)/.test(c))).toBe(true);
    // Ordinals are masked as for injection.
    expect(calls.every((c) => !c.includes('the second option'))).toBe(true);
    for (const d of r.dimensions) expect(d).toMatchObject({ meanA: 2, meanB: 0, winsA: items.length, winsB: 0, ties: 0 });
    expect(r.dimensions[0]!.pSign).toBeCloseTo(2 * 0.5 ** items.length, 12);
    await store.close();
  });
});
