// `export inspect` streams each log's samples in one pass over the run, tallying its header as
// it goes, and puts the header before them at the end: every number of the header must be what
// the samples themselves give, for a run of several subjects x suites, including reasoning
// tokens (known only from the transcripts), and the file must be exactly one JSON text as
// JSON.stringify writes it.

import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trialToSample, writeSample } from '../src/app/inspect-sample.js';
import { TextFileWriter } from '../src/app/text-file-writer.js';
import { exportInspectLogs, openStore, runTrialRows, type Store } from '../src/index.js';
import { evaluate } from './helpers/evaluate.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-inspect-logs-'));
const saved = { ...process.env };
let server: ModelServer;
let store: Store;

beforeAll(async () => {
  server = await startModelServer();
  process.env.OPENAI_BASE_URL = `${server.url}/v1`;
  process.env.OPENAI_API_KEY = 'sk-test-openai-0000';
  store = await openStore(join(dir, 'runs.db'));
  await evaluate({
    store,
    suites: ['generated-tom', 'generated-storyturn'],
    limit: 4,
    seed: 5,
    trials: 2,
    models: ['agent:oracle', 'agent:random', 'openai:o3'],
    runId: 'r',
  });
}, 120_000);

afterAll(async () => {
  process.env = saved;
  await store?.close();
  await server?.stop();
});

interface Usage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  reasoning_tokens?: number;
  total_cost?: number;
}
interface Sample {
  id: string;
  epoch: number;
  scores: Record<string, { value: string | number }>;
  model_usage: Record<string, Usage>;
  completed_at: string;
  error?: unknown;
}

const numeric = (v: string | number) => (v === 'C' ? 1 : v === 'I' ? 0 : Number(v));

describe('export inspect: header first, samples after', () => {
  it('writes headers that the samples bear out, for every subject x suite', async () => {
    const out = join(dir, 'logs');
    const { files } = await exportInspectLogs(store, 'r', out);
    expect(files).toHaveLength(6);
    expect(readdirSync(out).sort()).toEqual(files.map((f) => f.path.slice(out.length + 1)).sort());
    let reasoned = 0;
    for (const f of files) {
      const text = readFileSync(f.path, 'utf8');
      const log = JSON.parse(text);
      expect(JSON.stringify(log)).toBe(text);
      const samples = log.samples as Sample[];
      expect(samples).toHaveLength(f.samples);
      const ids = [...new Set(samples.map((s) => s.id))];
      expect(log.eval.dataset).toMatchObject({ samples: ids.length, sample_ids: ids });
      expect(log.eval.config.epochs).toBe(Math.max(...samples.map((s) => s.epoch)));
      const done = samples.filter((s) => !s.error);
      expect(log.results).toMatchObject({ total_samples: samples.length, completed_samples: done.length });
      expect(log.stats.completed_at).toBe(
        samples
          .map((s) => s.completed_at)
          .sort()
          .at(-1),
      );
      // Usage: the done samples' summed.
      const usages = done.map((s) => s.model_usage[log.eval.model]!);
      const sum = (k: keyof Usage) => usages.reduce((a, u) => a + (u[k] ?? 0), 0);
      const usage = log.stats.model_usage[log.eval.model] as Usage;
      expect(usage).toMatchObject({
        input_tokens: sum('input_tokens'),
        output_tokens: sum('output_tokens'),
        total_tokens: sum('total_tokens'),
      });
      if (usages.some((u) => u.reasoning_tokens !== undefined)) {
        expect(usage.reasoning_tokens).toBe(sum('reasoning_tokens'));
        expect(usage.reasoning_tokens).toBeGreaterThan(0);
        reasoned++;
      } else expect(usage).not.toHaveProperty('reasoning_tokens');
      // Scores: per item, the mean over epochs; then the mean over items.
      const byScorer = new Map<string, Map<string, number[]>>();
      for (const s of done)
        for (const [scorer, sc] of Object.entries(s.scores)) {
          if (!byScorer.has(scorer)) byScorer.set(scorer, new Map());
          const items = byScorer.get(scorer)!;
          items.set(s.id, [...(items.get(s.id) ?? []), numeric(sc.value)]);
        }
      const scores = log.results.scores as Array<{ name: string; scored_samples: number; metrics: Record<string, { value: number }> }>;
      expect(scores.map((s) => s.name)).toEqual([...byScorer.keys()]);
      for (const s of scores) {
        const means = [...byScorer.get(s.name)!.values()].map((v) => v.reduce((a, b) => a + b, 0) / v.length);
        expect(s.scored_samples).toBe(means.length);
        const value = (s.metrics.accuracy ?? s.metrics.mean)!.value;
        expect(value).toBeCloseTo(means.reduce((a, b) => a + b, 0) / means.length, 12);
      }
    }
    // The reasoning model's logs carry reasoning tokens in their headers.
    expect(reasoned).toBeGreaterThan(0);
    // Same run, same bytes.
    const again = await exportInspectLogs(store, 'r', join(dir, 'again'));
    for (const [i, f] of again.files.entries()) expect(readFileSync(f.path)).toEqual(readFileSync(files[i]!.path));
  });
});

describe('TextFileWriter', () => {
  it('writes the same bytes whether it holds the file open or opens it for each write', () => {
    const pieces = Array.from({ length: 500 }, (_, i) => `${i}:${'é✓'.repeat(i % 37)}\n`);
    const paths = [join(dir, 'held.txt'), join(dir, 'reopened.txt')];
    const writers = [
      new TextFileWriter(paths[0]!, { bufferBytes: 256 }),
      new TextFileWriter(paths[1]!, { bufferBytes: 256, holdOpen: false }),
    ];
    for (const p of pieces) for (const w of writers) w.write(p);
    for (const w of writers) w.close();
    for (const path of paths) expect(readFileSync(path, 'utf8')).toBe(pieces.join(''));
  });
});

describe('an Inspect sample written into a log', () => {
  it('is JSON.stringify of the sample, byte for byte: shared prompts spliced in, multi-call conversations, reasoning, failures', async () => {
    const path = join(dir, 'samples.txt');
    const out = new TextFileWriter(path);
    const expected: string[] = [];
    let spliced = 0;
    for await (const r of runTrialRows(store, 'r')) {
      const calls = r.transcript?.calls ?? [];
      if (calls.length === 1 && calls[0]!.messages && Object.isFrozen(calls[0]!.messages)) spliced++;
      writeSample(out, r);
      out.write('\n');
      expected.push(`${JSON.stringify(trialToSample(r))}\n`);
    }
    out.close();
    expect(spliced).toBeGreaterThan(0);
    expect(spliced).toBeLessThan(expected.length);
    expect(readFileSync(path, 'utf8')).toBe(expected.join(''));
  });
});
