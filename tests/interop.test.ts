// Exports for other tools and Inspect AI logs, on stores written by real runs of reference
// agents and of a model served over HTTP by a local server (one that returns reasoning, one that
// always fails): every trial as JSONL and Parquet, the run as Inspect eval logs checked against
// the schema of Inspect's format, and those logs imported back into the same response matrix.

import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readParquetRows } from '../src/core/index.js';
import {
  exportInspectLogs,
  exportTrials,
  importInspectLogs,
  type InspectEvalLog,
  InspectEvalLogSchema,
  openStore,
  runMatrix,
  scoreRun,
  type Store,
  TRIAL_COLUMNS,
} from '../src/index.js';
import { buildMatrixFrom, collect } from '../src/store/index.js';
import { evaluate } from './helpers/evaluate.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

const RUBRIC = `name: correctness
prompt: |
  Question: {question}
  Response: {response}
  Expected: {expected}
  Reply with JSON: {"score": 0-5}
fields:
  - { name: score, min: 0, max: 5, integer: true }
`;

const dir = mkdtempSync(join(tmpdir(), 'mindscope-interop-'));
let server: ModelServer;
let store: Store;
let reasoner: string;
let failing: string;
const AGENTS = ['agent:oracle', 'agent:random', 'agent:reality'];

beforeAll(async () => {
  server = await startModelServer();
  reasoner = `openai-compatible:${server.url}/v1#deepseek-r1`;
  failing = `openai-compatible:${server.url}/v1#always-500`;
  store = await openStore(join(dir, 'runs.db'));
  await evaluate({
    store,
    suites: ['generated-tom'],
    limit: 12,
    seed: 3,
    trials: 2,
    models: [...AGENTS, reasoner, failing],
    runId: 'mix',
    retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 10 },
  });
  writeFileSync(join(dir, 'rubric.yaml'), RUBRIC);
  await scoreRun({ store, runId: 'mix', rubricPath: join(dir, 'rubric.yaml'), judges: ['agent:exact-judge'] });
  // Another run in the same store: its trials must not leak into the exports of 'mix'.
  await evaluate({ store, suites: ['generated-storyturn'], limit: 4, models: ['agent:oracle', 'agent:random'], runId: 'st' });
}, 120_000);

afterAll(async () => {
  await store?.close();
  await server?.stop();
});

function readJsonl(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('export trials', () => {
  it('writes one JSONL row per trial with messages, reply, reasoning, answers, scores, judges and usage', async () => {
    const out = join(dir, 'mix.jsonl');
    expect(await exportTrials(store, 'mix', out)).toEqual({ rows: 12 * 5 * 2 });
    const rows = readJsonl(out);
    expect(rows).toHaveLength(120);
    for (const r of rows) expect(Object.keys(r)).toEqual(TRIAL_COLUMNS);
    expect(new Set(rows.map((r) => r.run_id))).toEqual(new Set(['mix']));
    const bySubject = (s: string) => rows.filter((r) => r.subject === s);
    // The oracle reads every answer right; its parsed answer is the gold letter.
    const oracle = bySubject('agent:oracle');
    expect(oracle).toHaveLength(24);
    for (const r of oracle) {
      expect(r).toMatchObject({ status: 'done', protocol: 'mcq', scorer: 'mcq-exact', score: 1, parse_failed: false });
      expect(r.parsed_answer).toBe(r.gold);
      expect(r.reply).toBe(`Answer: ${r.gold}`);
      const messages = r.messages as Array<Array<{ role: string; content: string }>>;
      expect(messages).toHaveLength(1);
      expect(messages[0]!.map((m) => m.role)).toEqual(['system', 'user']);
      expect(messages[0]![1]!.content).toContain('Question:');
    }
    // The judge's score and its panel, with the rubric's pinned hash.
    const [pin] = await store.pinnedRubrics('mix');
    for (const r of rows.filter((x) => x.status === 'done')) {
      expect(Object.keys(r.judge_scores as object)).toEqual(['judge:correctness']);
      const judges = r.judges as Array<Record<string, unknown>>;
      expect(judges).toEqual([
        expect.objectContaining({ scorer: 'judge:correctness', judge: 'agent:exact-judge', rubricSha256: pin!.sha256 }),
      ]);
    }
    // Reasoning returned by the server is kept, with the tokens it used.
    const reasoned = bySubject(reasoner);
    expect(reasoned.every((r) => r.reasoning === 'The story says the marble was moved while she was away.')).toBe(true);
    expect(reasoned.every((r) => (r.input_tokens as number) > 0 && (r.calls as number) === 1)).toBe(true);
    // Failed trials are rows too, with their error and no score.
    const failed = bySubject(failing);
    expect(failed).toHaveLength(24);
    for (const r of failed) expect(r).toMatchObject({ status: 'failed', score: null, scorer: null, messages: [], judge_scores: {} });
    expect(failed.every((r) => typeof r.error === 'string' && (r.error as string).length > 0)).toBe(true);
    // The mean score per subject is the run's accuracy as the store computes it.
    const responses = await collect(store.responses('mix', 'mcq-exact'));
    for (const s of [...AGENTS, reasoner]) {
      const mine = bySubject(s).map((r) => r.score as number);
      const theirs = responses.filter((r) => r.spec === s).map((r) => r.value);
      expect(mine.reduce((a, b) => a + b, 0)).toBe(theirs.reduce((a, b) => a + b, 0));
      expect(mine).toHaveLength(theirs.length);
    }
  });

  it('writes the same rows as Parquet (nested columns as JSON text)', async () => {
    const jsonl = readJsonl(join(dir, 'mix.jsonl'));
    const out = join(dir, 'mix.parquet');
    expect(await exportTrials(store, 'mix', out)).toEqual({ rows: 120 });
    const buf = readFileSync(out);
    const rows = await readParquetRows(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
    expect(rows).toHaveLength(120);
    expect(Object.keys(rows[0]!)).toEqual(TRIAL_COLUMNS);
    rows.forEach((r, i) => {
      const j = jsonl[i]!;
      for (const c of [
        'run_id',
        'subject',
        'item_id',
        'replicate',
        'status',
        'reply',
        'reasoning',
        'parsed_answer',
        'gold',
        'score',
        'parse_failed',
      ])
        expect(r[c], c).toEqual(j[c]);
      expect(JSON.parse(r.messages as string)).toEqual(j.messages);
      expect(JSON.parse(r.judges as string)).toEqual(j.judges);
    });
  });

  it('exports conversation trials through their record, and refuses an unknown extension', async () => {
    const out = join(dir, 'st.jsonl');
    expect(await exportTrials(store, 'st', out)).toEqual({ rows: 8 });
    const rows = readJsonl(out);
    const r = rows.find((x) => x.subject === 'agent:oracle')!;
    expect(r.protocol).toBe('conversation');
    const parsed = JSON.parse(r.parsed_answer as string) as string[];
    expect(parsed.length).toBeGreaterThan(1);
    expect((r.messages as unknown[]).length).toBe(parsed.length);
    await expect(exportTrials(store, 'st', join(dir, 'st.csv'))).rejects.toThrow(/must end in \.jsonl or \.parquet/);
    await expect(exportTrials(store, 'nope', join(dir, 'x.jsonl'))).rejects.toThrow(/no run "nope"/);
  });
});

describe('export inspect', () => {
  it("writes one log per subject x suite that fits Inspect's format and carries the run's numbers", async () => {
    const out = join(dir, 'inspect');
    const { files } = await exportInspectLogs(store, 'mix', out);
    expect(files).toHaveLength(5);
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // The protocol's scores (the run also holds the judge's).
    const matrix = await buildMatrixFrom(store.responses('mix', 'mcq-exact'));
    for (const f of files) {
      const log = InspectEvalLogSchema.parse(JSON.parse(readFileSync(f.path, 'utf8')));
      expect(log.version).toBe(2);
      expect(log.eval).toMatchObject({ task: 'mindscope/generated-tom', config: { epochs: 2 }, dataset: { samples: 12 } });
      expect(log.samples).toHaveLength(24);
      expect(new Set(log.samples!.map((s) => s.epoch))).toEqual(new Set([1, 2]));
      const results = log.results!;
      if (f.subject === failing) {
        expect(results).toMatchObject({ total_samples: 24, completed_samples: 0, scores: [] });
        expect(log.samples!.every((s) => s.error && s.error.message.length > 0)).toBe(true);
        continue;
      }
      expect(results).toMatchObject({ total_samples: 24, completed_samples: 24 });
      const [main, judge] = results.scores;
      expect(main!.name).toBe('mcq-exact');
      expect(judge!.name).toBe('judge:correctness');
      // accuracy: the mean over items of each item's mean over epochs, as the matrix holds it.
      const si = matrix.subjects.indexOf(f.subject);
      const cells = matrix.cells.map((row) => row[si]!);
      const mean = cells.reduce((a, b) => a + b, 0) / cells.length;
      const sd = Math.sqrt(cells.reduce((a, v) => a + (v - mean) ** 2, 0) / (cells.length - 1));
      expect(main!.metrics.accuracy!.value).toBeCloseTo(mean, 12);
      expect(main!.metrics.stderr!.value).toBeCloseTo(sd / Math.sqrt(cells.length), 12);
      // Sample scores are C/I; MCQ samples carry their options and the target letter.
      for (const s of log.samples!) {
        const v = s.scores!['mcq-exact']!.value;
        expect(['C', 'I']).toContain(v);
        expect(s.choices!.length).toBeGreaterThan(1);
        expect(s.target).toMatch(/^[A-Z]$/);
        expect(s.messages!.at(-1)!.role).toBe('assistant');
      }
      if (f.subject === reasoner) {
        const content = log.samples![0]!.messages!.at(-1)!.content;
        expect(content).toEqual([expect.objectContaining({ type: 'reasoning' }), expect.objectContaining({ type: 'text' })]);
        expect(log.stats!.model_usage[log.eval.model]!.input_tokens).toBeGreaterThan(0);
      }
    }
  });
});

describe('import inspect', () => {
  it('gives back the same response matrix (export inspect, then import inspect)', async () => {
    const back = await openStore(join(dir, 'back.db'));
    try {
      const r = await importInspectLogs({ store: back, paths: [join(dir, 'inspect')] });
      expect(r).toMatchObject({ files: 5, trials: 96, failed: 24, duplicates: 0 });
      expect(r.subjects.sort()).toEqual([...AGENTS, reasoner, failing].sort());
      // The protocol's score is the imported trial's score (the judge's stays in the log).
      const original = await buildMatrixFrom(store.responses('mix', 'mcq-exact'));
      const imported = await runMatrix(back, r.runId);
      expect(imported).toEqual(original);
      // Status and usage come along; importing again adds nothing.
      const status = await back.status(r.runId);
      expect(status.find((s) => s.spec === failing)).toMatchObject({ planned: 24, done: 0, failed: 24 });
      const again = await importInspectLogs({ store: back, paths: [join(dir, 'inspect')] });
      expect(again).toMatchObject({ runId: r.runId, trials: 0, failed: 0, duplicates: 120 });
      // An imported trial exports like any other, with its reply and answer.
      await exportTrials(back, r.runId, join(dir, 'back.jsonl'));
      const rows = readJsonl(join(dir, 'back.jsonl'));
      const oracle = rows.find((x) => x.subject === 'agent:oracle' && x.status === 'done')!;
      expect(oracle).toMatchObject({ protocol: 'inspect', score: 1 });
      expect(oracle.reply).toBe(`Answer: ${oracle.gold}`);
      expect(oracle.parsed_answer).toBe(oracle.gold);
    } finally {
      await back.close();
    }
  });

  it('round-trips a StoryTurn run: the same matrix from the store and from its Inspect logs', async () => {
    await exportInspectLogs(store, 'st', join(dir, 'inspect-st'));
    const back = await openStore(join(dir, 'back-st.db'));
    try {
      const r = await importInspectLogs({ store: back, paths: [join(dir, 'inspect-st')], runId: 'st-back' });
      expect(r).toMatchObject({ files: 2, trials: 8, failed: 0 });
      const original = await runMatrix(store, 'st');
      expect(original.items).toHaveLength(4);
      expect(await runMatrix(back, 'st-back')).toEqual(original);
    } finally {
      await back.close();
    }
  });

  it('reads the .eval (zip) layout: header.json and one samples/ID_epoch_N.json per sample', async () => {
    const [file] = readdirSync(join(dir, 'inspect')).filter((f) => f.includes('agent-random'));
    const log = JSON.parse(readFileSync(join(dir, 'inspect', file!), 'utf8'));
    const { samples, ...header } = log;
    const entries: Record<string, Uint8Array> = { 'header.json': Buffer.from(JSON.stringify(header)) };
    for (const s of samples) entries[`samples/${s.id}_epoch_${s.epoch}.json`] = Buffer.from(JSON.stringify(s));
    writeFileSync(join(dir, 'random.eval'), zipSync(entries));
    const a = await openStore(join(dir, 'zip.db'));
    const b = await openStore(join(dir, 'json.db'));
    try {
      const fromZip = await importInspectLogs({ store: a, paths: [join(dir, 'random.eval')], runId: 'r' });
      const fromJson = await importInspectLogs({ store: b, paths: [join(dir, 'inspect', file!)], runId: 'r' });
      expect(fromZip.trials).toBe(24);
      expect(fromJson.trials).toBe(24);
      expect(await runMatrix(a, 'r')).toEqual(await runMatrix(b, 'r'));
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("imports a log in Inspect's own layout for a task of its own (model, task, C/I scores, epochs)", async () => {
    const file = join(__dirname, 'fixtures', 'inspect', 'false-belief_gpt-4o-mini.json');
    const s = await openStore(join(dir, 'foreign.db'));
    try {
      await expect(importInspectLogs({ store: s, paths: [file] })).rejects.toThrow(
        /false-belief_gpt-4o-mini\.json: samples\[0\]\.metadata\.category: missing; pass --category/,
      );
      const r = await importInspectLogs({ store: s, paths: [file], category: 'belief' });
      expect(r).toMatchObject({ subjects: ['openai/gpt-4o-mini'], suites: ['false_belief'], trials: 8, failed: 0 });
      const m = await runMatrix(s, r.runId);
      expect(m.subjects).toEqual(['openai/gpt-4o-mini']);
      expect(m.items.map((i) => [i.itemId, i.category])).toEqual([
        ['1', 'belief'],
        ['2', 'belief'],
        ['3', 'belief'],
        ['4', 'belief'],
      ]);
      // Epochs are replicates: the cell is the mean over them (sample 2 right once of twice).
      expect(m.cells.map((c) => c[0])).toEqual([1, 0.5, 0, 1]);
      const usage = await s.usage(r.runId);
      expect(usage[0]).toMatchObject({ inputTokens: 8 * 60, outputTokens: 8 * 5 });
      expect(usage[0]!.costUsd).toBeNull();
    } finally {
      await s.close();
    }
  });

  it('names the file and the field of bad input', async () => {
    const [file] = readdirSync(join(dir, 'inspect')).filter((f) => f.includes('agent-oracle'));
    const good = InspectEvalLogSchema.parse(JSON.parse(readFileSync(join(dir, 'inspect', file!), 'utf8')));
    const s = await openStore(join(dir, 'bad.db'));
    const bad = (name: string, change: (log: InspectEvalLog) => void) => {
      const log = structuredClone(good);
      change(log);
      const p = join(dir, name);
      writeFileSync(p, JSON.stringify(log));
      return importInspectLogs({ store: s, paths: [p] });
    };
    try {
      await expect(
        bad('value.json', (l) => {
          l.samples![3]!.scores!['mcq-exact']!.value = 'maybe';
        }),
      ).rejects.toThrow(/value\.json: samples\[3\]\.scores\.mcq-exact\.value: "maybe" is not a correctness value/);
      await expect(
        bad('noscore.json', (l) => {
          l.samples![1]!.scores = {};
        }),
      ).rejects.toThrow(/noscore\.json: samples\[1\]\.scores: no score "mcq-exact"/);
      await expect(
        bad('task.json', (l) => {
          (l.eval as Record<string, unknown>).task = undefined;
        }),
      ).rejects.toThrow(/task\.json: not an Inspect eval log: eval\.task: /);
      await expect(
        bad('epoch.json', (l) => {
          (l.samples![2] as Record<string, unknown>).epoch = 'one';
        }),
      ).rejects.toThrow(/epoch\.json: not an Inspect eval log: samples\[2\]\.epoch: /);
      writeFileSync(join(dir, 'broken.eval'), 'not a zip');
      await expect(importInspectLogs({ store: s, paths: [join(dir, 'broken.eval')] })).rejects.toThrow(
        /broken\.eval: not a readable \.eval \(zip\) log: .*inspect log convert --to json/,
      );
      await expect(importInspectLogs({ store: s, paths: [join(dir, 'missing.json')] })).rejects.toThrow(
        /missing\.json: cannot read: ENOENT/,
      );
      expect(existsSync(join(dir, 'missing.json'))).toBe(false);
    } finally {
      await s.close();
    }
  });
});
