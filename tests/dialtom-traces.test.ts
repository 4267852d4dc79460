// Reasoning-trace injection end to end on the DialToM fixtures, over the local model server: a
// teacher run whose replies carry reasoning (model teacher-reasoner), its traces taken into a
// --traces file (`dialtom teacher-traces`) with the last N sentences dropped and masked by the
// rules or by a masking model (model masker, through the call cache, on two providers), the
// traces injected into a student run, and the McNemar comparison over the items that were
// shown a trace (`analyze traces`), the others counted and left out.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropLastSentences, maskOptionReferences } from '../src/protocols/index.js';
import { loadDialtom } from '../src/studies/dialtom/index.js';
import { runCli } from './helpers/run-cli.js';
import { providerEnv, startModelServer, type ModelServer } from './helpers/servers.js';

const DATA = join(__dirname, 'fixtures', 'data');
const ITEMS = loadDialtom(DATA, 'prospective').items;

let server: ModelServer;
let dir: string;
let db: string;
const model = (name: string) => `openai-compatible:${server.url}/v1#${name}`;
const cli = (args: string[]) => runCli(args, { env: providerEnv(server.url) as Record<string, string> });
const readJsonl = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { item_id: string; trace: string });

beforeAll(async () => {
  server = await startModelServer();
  dir = mkdtempSync(join(tmpdir(), 'mindscope-teacher-'));
  db = join(dir, 'm.db');
  const teacher = await cli([
    'run',
    'dialtom-prospective',
    '--data',
    DATA,
    '--model',
    model('teacher-reasoner'),
    '--run-id',
    'teacher',
    '--db',
    db,
  ]);
  expect(teacher.code, teacher.stderr).toBe(0);
});
afterAll(async () => {
  await server.stop();
});

describe('dropping the last sentences of a trace', () => {
  it('drops N sentences, and empties a trace of N sentences or fewer', () => {
    const t = 'One. Two! Three?\nFour. Five.';
    expect(dropLastSentences(t, 0)).toBe(t);
    expect(dropLastSentences(t, 1)).toBe('One. Two! Three?\nFour.');
    expect(dropLastSentences(t, 2)).toBe('One. Two! Three?');
    expect(dropLastSentences(t, 4)).toBe('One.');
    expect(dropLastSentences(t, 5)).toBe('');
    expect(maskOptionReferences(t, ['x y z w'], 3)).toEqual({ masked: 'One. Two!', masks: 1 });
    expect(maskOptionReferences(t, ['x y z w'], true).masked).toBe('One. Two! Three?\nFour.');
  });
});

describe('dialtom teacher-traces', () => {
  it("writes the teacher's stored reasoning per item, its last five sentences dropped", async () => {
    const out = join(dir, 'raw.jsonl');
    const r = await cli(['dialtom', 'teacher-traces', '--run-id', 'teacher', '--out', out, '--traces-drop-last', '5', '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`wrote 12 trace(s) of ${model('teacher-reasoner')} (run teacher, dialtom-prospective) to ${out}`);
    expect(r.stdout).toContain('last 5 sentence(s) of each trace dropped');
    const traces = readJsonl(out);
    expect(traces.map((t) => t.item_id).sort()).toEqual(ITEMS.map((i) => i.id).sort());
    for (const t of traces) {
      // The teacher quotes the first line of option A.
      const first = ITEMS.find((i) => i.id === t.item_id)!
        .payload.options[0]!.split('\n')[0]!
        .trim();
      // Eight sentences, the last five (the pick and its justification) dropped.
      expect(t.trace).toBe(
        `I read the client's mental state first. Option A, "${first}", clashes with the stated belief. The second option fits the desire better.`,
      );
    }
  });

  it('masks by the rules, or by a model through the call cache on any provider', async () => {
    const rules = join(dir, 'rules.jsonl');
    const r = await cli(['dialtom', 'teacher-traces', '--run-id', 'teacher', '--out', rules, '--mask', 'rules', '--db', db, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ traces: 12, masking: 'rules', dropped: 0, withoutText: [], emptied: [] });
    for (const t of readJsonl(rules)) {
      for (const o of ITEMS.find((i) => i.id === t.item_id)!.payload.options) expect(t.trace).not.toContain(o.split('\n')[0]);
      expect(t.trace).toContain('Option [MASK], [MASK]');
      expect(t.trace).toContain('The [MASK] option fits the desire better. Comparing the rest, ([MASK]) sounds too cold');
      expect(t.trace).toContain('[MASK] matches every attribute I checked. So the answer is [MASK]. Final answer: [MASK].');
    }
    expect(summary.masks).toBe(readJsonl(rules).reduce((n, t) => n + t.trace.split('[MASK]').length - 1, 0));

    for (const spec of [model('masker'), 'anthropic:masker']) {
      const out = join(dir, `llm-${spec.startsWith('anthropic') ? 'anthropic' : 'openai'}.jsonl`);
      const args = ['dialtom', 'teacher-traces', '--run-id', 'teacher', '--out', out, '--traces-drop-last', '2'];
      const before = (await server.stats()).requests;
      const m = await cli([...args, '--mask', 'llm', '--mask-model', spec, '--db', db, '--json']);
      expect(m.code, m.stderr).toBe(0);
      expect(JSON.parse(m.stdout)).toMatchObject({ traces: 12, masking: 'llm', maskModel: spec, dropped: 2, masks: 12 * 5 });
      expect((await server.stats()).requests - before).toBe(12);
      const bodies = (await server.stats()).bodies.slice(-12).map((b) => JSON.stringify(b.body));
      expect(bodies.every((b) => b.includes('mask every direct and indirect reference to the answer options with the token [MASK]'))).toBe(
        true,
      );
      for (const t of readJsonl(out))
        expect(t.trace).toBe(
          'I read the client\'s mental state first. [MASK], "[MASK]", clashes with the stated belief. The [MASK] option fits the desire better. Comparing the rest, [MASK] sounds too cold for the emotion. Weighing the trust attribute once more settles it. [MASK] matches every attribute I checked.',
        );
      // Asked again: every call comes from the cache.
      const again = (await server.stats()).requests;
      expect((await cli([...args, '--mask', 'llm', '--mask-model', spec, '--db', db])).code).toBe(0);
      expect((await server.stats()).requests).toBe(again);
    }
  });

  it('a masking prompt of your own; bad choices and runs without reasoning are explained', async () => {
    const prompt = join(dir, 'prompt.txt');
    writeFileSync(prompt, 'Hide the options.\nAnswer options:\n{options}\n\nReasoning trace:\n{trace}');
    const out = join(dir, 'own.jsonl');
    const own = await cli([
      'dialtom',
      'teacher-traces',
      '--run-id',
      'teacher',
      '--out',
      out,
      '--mask',
      'llm',
      '--mask-model',
      model('masker'),
      '--mask-prompt',
      prompt,
      '--db',
      db,
    ]);
    expect(own.code, own.stderr).toBe(0);
    expect(JSON.stringify((await server.stats()).bodies.at(-1)!.body)).toContain('Hide the options.');
    writeFileSync(prompt, 'Hide {trace}');
    const bad = await cli([
      'dialtom',
      'teacher-traces',
      '--run-id',
      'teacher',
      '--out',
      out,
      '--mask',
      'llm',
      '--mask-model',
      model('masker'),
      '--mask-prompt',
      prompt,
      '--db',
      db,
    ]);
    expect(bad.stderr).toMatch(/prompt\.txt: the masking prompt must contain \{options\}/);
    // A reasoning model that thinks past the limit: its cut-off reply is refused, not injected.
    const cut = await cli([
      'dialtom',
      'teacher-traces',
      '--run-id',
      'teacher',
      '--out',
      out,
      '--mask',
      'llm',
      '--mask-model',
      'openai:o4-mini',
      '--mask-max-tokens',
      '100',
      '--db',
      db,
    ]);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/the masking model openai:o4-mini was cut off at 100 output tokens \(give more with --mask-max-tokens\)/);
    const noModel = await cli(['dialtom', 'teacher-traces', '--run-id', 'teacher', '--out', out, '--mask', 'llm', '--db', db]);
    expect(noModel.stderr).toMatch(/masking by a model needs --mask-model SPEC/);

    const plain = await cli([
      'run',
      'dialtom-prospective',
      '--data',
      DATA,
      '--model',
      model('ok'),
      '--model',
      model('teacher-reasoner'),
      '--run-id',
      'two',
      '--db',
      db,
    ]);
    expect(plain.code, plain.stderr).toBe(0);
    const two = await cli(['dialtom', 'teacher-traces', '--run-id', 'two', '--out', out, '--db', db]);
    expect(two.stderr).toMatch(/run two has 2 subjects: name the teacher with --subject/);
    const silent = await cli(['dialtom', 'teacher-traces', '--run-id', 'two', '--subject', model('ok'), '--out', out, '--db', db]);
    expect(silent.code, silent.stderr).toBe(0);
    expect(silent.stdout).toContain('wrote 0 trace(s)');
    expect(silent.stdout).toContain('12 item(s) left out: their trial stored no reasoning text');
    const replies = await cli([
      'dialtom',
      'teacher-traces',
      '--run-id',
      'two',
      '--subject',
      model('ok'),
      '--from',
      'reply',
      '--out',
      out,
      '--db',
      db,
    ]);
    expect(replies.stdout).toContain('wrote 12 trace(s)');
    expect(readJsonl(out)[0]!.trace).toBe('Answer: A');
  });
});

describe('analyze traces: only items shown a trace are compared', () => {
  it('injects the traces of five items, and compares those five, counting the seven left out', async () => {
    const traced = ITEMS.slice(0, 5);
    const file = join(dir, 'five.jsonl');
    writeFileSync(file, traced.map((i) => JSON.stringify({ item_id: i.id, trace: 'The profile points to one continuation.' })).join('\n'));
    const base = ['run', 'dialtom-prospective', '--data', DATA, '--model', model('ok'), '--db', db];
    expect((await cli([...base, '--run-id', 'base'])).code).toBe(0);
    const withTraces = await cli([...base, '--run-id', 'treated', '--traces', file, '--traces-drop-last', '5']);
    expect(withTraces.code, withTraces.stderr).toBe(0);
    const r = await cli(['analyze', 'traces', '--baseline', 'base', '--treated', 'treated', '--db', db, '--json']);
    expect(r.code, r.stderr).toBe(0);
    // Model ok picks A: right exactly where the answer is listed first.
    const right = traced.filter((i) => i.payload.options[0] === i.answer).length;
    expect(JSON.parse(r.stdout)).toEqual([
      {
        subject: model('ok'),
        suite: 'dialtom-prospective',
        items: 5,
        untraced: 7,
        baseline: right / 5,
        treated: right / 5,
        table: [
          [right, 0],
          [0, 5 - right],
        ],
        pCorrected: 1,
        pExact: 1,
      },
    ]);
    const text = await cli(['analyze', 'traces', '--baseline', 'base', '--treated', 'treated', '--db', db]);
    expect(text.stdout).toMatch(/no trace \(left out\)/);
    expect(text.stdout).toContain('7 paired item(s) had no trace in run treated and are left out: only items shown a trace are compared');
    const none = await cli(['analyze', 'traces', '--baseline', 'base', '--treated', 'base', '--db', db]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/run base showed no item a trace: run it with --traces FILE/);
  });
});
