// Judge panels: rubrics pinned by hash, schema-checked output with one repair, aggregation,
// blinding, re-scoring a stored run without re-running subjects (and without paying twice),
// same-family analysis, and validation on anchors; against a real local HTTP judge server and
// offline with the reference judges.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../src/store/index.js';
import { createModel, openStore, scoreRun, validateJudgeModels } from '../src/index.js';
import {
  aggregate,
  familyAnalysis,
  loadRubric,
  parseJudgeOutput,
  parseRubric,
  scoreWithPanel,
  type JudgeCaller,
} from '../src/judges/index.js';
import { evaluate } from './helpers/evaluate.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { runCli } from './helpers/run-cli.js';

const RUBRIC = `name: correctness
prompt: |
  You grade answers. Subject {subject} answered the question below.
  Question: {question}
  Response: {response}
  Expected: {expected}
  Reply with JSON: {"score": 0-5}
fields:
  - { name: score, min: 0, max: 5, integer: true }
`;

const caller = (spec: string): JudgeCaller => {
  const m = createModel(spec);
  return {
    spec,
    chat: (messages, settings, context) =>
      m.chat({ messages, settings: { temperature: 0, maxTokens: 64, ...settings }, timeoutMs: 10_000, context }),
  };
};

describe('rubrics and judge output', () => {
  it('parses, hashes and rejects bad rubrics with the reason', () => {
    const r = parseRubric(RUBRIC, 'r.yaml');
    expect(r.fields).toEqual([{ name: 'score', min: 0, max: 5, integer: true }]);
    expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(parseRubric(RUBRIC.replace('grade', 'mark'), 'r.yaml').sha256).not.toBe(r.sha256);
    expect(() => parseRubric('name: x\nprompt: no response here\nfields: [{name: s, min: 0, max: 1}]', 'bad.yaml')).toThrow(
      /bad\.yaml: rubric field "prompt" must be a template that includes \{response\}/,
    );
    expect(() => parseRubric('name: x\nprompt: "{response}"\nfields: [{name: s, min: 2, max: 1}]', 'bad.yaml')).toThrow(
      /fields\[0\] \(s\): needs numbers min < max/,
    );
    expect(() => parseRubric('name: x\nprompt: "{response}"\nfields: [{name: s, min: 0, max: 1}]\nkeywords: {t: [a]}', 'bad.yaml')).toThrow(
      /keywords name the unknown field "t"/,
    );
    // A name that is no file and no built-in rubric lists the built-in ones.
    expect(() => loadRubric('castelli')).toThrow(
      /castelli: cannot read: ENOENT \(no such file; the built-in rubrics are dialtom-inference, dialtom-trace-pair, commet-open-answer, castelli-triangles\)/,
    );
  });

  it('reads judge output: JSON, fields present, whole, in range', () => {
    const r = parseRubric(RUBRIC, 'r.yaml');
    expect(parseJudgeOutput('Sure. {"score": 4}', r)).toEqual({ ok: true, values: { score: 4 } });
    expect(parseJudgeOutput('fine', r)).toEqual({ ok: false, error: 'the reply holds no JSON object' });
    expect(parseJudgeOutput('{"score": 6}', r)).toEqual({ ok: false, error: '"score" must lie in [0, 5], got 6' });
    expect(parseJudgeOutput('{"score": 2.5}', r)).toEqual({ ok: false, error: '"score" must be a whole number' });
    expect(aggregate([1, 5, 3, 4], 'median')).toBe(3.5);
    expect(aggregate([1, 5, 3], 'mean')).toBe(3);
    expect(aggregate([2, 2, 5, 5, 3], 'majority')).toBe(2);
  });

  it('same-family analysis drops the cells where judge and subject share a family', () => {
    const cells = [
      { judge: 'openai:j', subject: 'openai:s', field: 'score', value: 5 },
      { judge: 'openai:j', subject: 'google:s', field: 'score', value: 1 },
      { judge: 'google:j', subject: 'openai:s', field: 'score', value: 3 },
    ];
    expect(familyAnalysis(cells, (s) => s.split(':')[0])).toEqual([
      { field: 'score', all: 3, withoutInFamily: 2, cells: 3, inFamilyCells: 1 },
    ]);
  });
});

describe('judge panels over a real local server', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.stop());

  it('keeps every raw output, repairs once, counts failures, aggregates by median', async () => {
    const r = parseRubric(RUBRIC, 'r.yaml');
    const j = (m: string) => caller(`openai-compatible:${server.url}/v1#${m}`);
    const panel = await scoreWithPanel([j('judge-exact'), j('judge-repair'), j('judge-range')], r, {
      subject: 's-1',
      response: 'the green box',
      vars: { question: 'Where?', expected: 'green box' },
    });
    expect(panel.judges.map((x) => [x.values?.score ?? null, x.raw.length])).toEqual([
      [5, 1],
      [3, 2],
      [null, 2],
    ]);
    expect(panel.judges[2]!.error).toBe('"score" must lie in [0, 5], got 99');
    expect(panel.failures).toBe(1);
    expect(panel.aggregate).toEqual({ score: 4 });
  });

  it('scores a stored run blind, without re-running subjects or paying twice, and pins the rubric', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-judges-'));
    const rubricFile = join(dir, 'correctness.yaml');
    writeFileSync(rubricFile, RUBRIC);
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({ store, suites: ['generated-tom'], limit: 8, seed: 3, models: ['agent:oracle', 'agent:reality'], runId: 'graded' });
      const judges = [`openai-compatible:${server.url}/v1#judge-exact`, 'agent:exact-judge'];
      const before = (await server.stats()).requests;
      const first = await scoreRun({ store, runId: 'graded', rubricPath: rubricFile, judges });
      expect(first).toMatchObject({ scored: 16, alreadyScored: 0, unscored: 0, judgeFailures: 0, calls: { made: 32, cached: 0 } });
      expect(first.meanByField.score).toBeGreaterThan(2);
      const stats = await server.stats();
      expect(stats.requests - before).toBe(16);
      // Blinding: no judge prompt names a subject.
      for (const b of stats.bodies.slice(-16)) expect(JSON.stringify(b.body)).not.toMatch(/agent:oracle|agent:reality|oracle|reality/);
      // The oracle answers right, so both judges give it the maximum.
      const oracleRows = (await collect(store.responses('graded', 'judge:correctness'))).filter((x) => x.spec === 'agent:oracle');
      expect(oracleRows.every((x) => x.value === 5)).toBe(true);
      // Scoring again: everything already scored, no request made.
      const again = await scoreRun({ store, runId: 'graded', rubricPath: rubricFile, judges });
      expect(again).toMatchObject({ scored: 0, alreadyScored: 16, calls: { made: 0 } });
      expect((await server.stats()).requests).toBe(stats.requests);
      // A changed rubric under the same name is refused.
      writeFileSync(rubricFile, RUBRIC.replace('You grade answers.', 'You grade answers strictly.'));
      await expect(scoreRun({ store, runId: 'graded', rubricPath: rubricFile, judges })).rejects.toThrow(
        /was scored with rubric "correctness" sha256 [0-9a-f]{12}\.\.\.; this file is [0-9a-f]{12}\.\.\.: refusing/,
      );
    } finally {
      await store.close();
    }
  });

  it('validates judges on anchors: the keyword judge passes, a noisy judge fails its SD gate', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-judge-validate-'));
    writeFileSync(
      join(dir, 'r.yaml'),
      `name: intent\nprompt: "Describe: {response}"\nfields:\n  - { name: score, min: 0, max: 5 }\nkeywords: { score: [wants, tries, because, tricks] }\n`,
    );
    writeFileSync(
      join(dir, 'anchors.json'),
      JSON.stringify([
        { id: 'flat', text: 'Two shapes move around.', expected: { score: [0, 1] } },
        { id: 'rich', text: 'The big one wants to get in and tries, because it tricks the small one.', expected: { score: [3, 5] } },
      ]),
    );
    const store = await openStore(join(dir, 'm.db'));
    try {
      const out = await validateJudgeModels({
        store,
        rubricPath: join(dir, 'r.yaml'),
        anchorsPath: join(dir, 'anchors.json'),
        judges: ['agent:keyword-judge', `openai-compatible:${server.url}/v1#judge-noisy`],
        k: 4,
      });
      const [kw, noisy] = out.results;
      expect(kw).toMatchObject({ pass: true, recovery: 1 });
      expect(noisy!.pass).toBe(false);
      expect(noisy!.reasons.join(' ')).toMatch(/score: SD \d\.\d\d on anchor \w+ > 0\.5/);
    } finally {
      await store.close();
    }
    const cli = await runCli([
      'judge',
      'validate',
      '--rubric',
      join(dir, 'r.yaml'),
      '--anchors',
      join(dir, 'anchors.json'),
      '--judge',
      'agent:keyword-judge',
      '--k',
      '2',
      '--db',
      join(dir, 'c.db'),
    ]);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/agent:keyword-judge\s+100\.0%\s+0\s+pass/);
  });
});

describe('judging open answers and free-text inferences', () => {
  it('StoryTurn: closed turns keep their exact score, open "why" turns go to the panel', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-judge-storyturn-'));
    writeFileSync(
      join(dir, 'open.yaml'),
      `name: open\nprompt: "Question: {question}\\nExpected: {expected}\\nResponse: {response}"\nfields:\n  - { name: score, min: 0, max: 5 }\n`,
    );
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({ store, suites: ['generated-storyturn'], limit: 12, models: ['agent:oracle', 'agent:random'], runId: 'st' });
      const r = await scoreRun({ store, runId: 'st', rubricPath: join(dir, 'open.yaml'), judges: ['agent:exact-judge'] });
      expect(r.scored).toBe(24);
      const rows = await collect(store.responses('st', 'judge:open'));
      const detailOf = async (x: (typeof rows)[number]) =>
        (await store.scoreOf(
          { runId: 'st', subjectId: x.subjectId, suite: x.suite, itemId: x.itemId, replicate: x.replicate },
          'judge:open',
        ))!.detail as { turns: Array<{ open: boolean; correct: boolean }> };
      const secondOrder = rows.filter((x) => x.itemId.includes('second-order'));
      expect(secondOrder.length).toBeGreaterThan(0);
      for (const x of secondOrder) expect((await detailOf(x)).turns.map((t) => t.open)).toEqual([false, false, false, true]);
      // The oracle's "why" answers are an expected alternative: judged right; its stories stay right.
      expect(rows.filter((x) => x.spec === 'agent:oracle').every((x) => x.value === 1)).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('DialToM: the PA/CA/SA rubric judges inferences against the human references', async () => {
    const { benchmarkInferences, parseWrittenDialogues, parseWrittenInferences } = await import('../src/studies/dialtom/index.js');

    const { judgeInferences } = await import('../src/index.js');
    const { readFileSync } = await import('node:fs');
    // The fixture's DialToM units and their human references (tests/fixtures/data/README.md).
    const data = join(__dirname, 'fixtures', 'data', 'dialtom', 'data');
    const references = parseWrittenInferences(readFileSync(join(data, 'written_inference.csv'), 'utf8'));
    const combined = JSON.parse(readFileSync(join(data, 'combined_written_data.json'), 'utf8'));
    const hypotheses = benchmarkInferences(combined).slice(0, 200);
    const dialogues = parseWrittenDialogues(combined);
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-judge-inference-'));
    const store = await openStore(join(dir, 'm.db'));
    try {
      const j = (
        await judgeInferences({
          store,
          rubricPath: join(__dirname, '..', 'rubrics', 'dialtom-inference.yaml'),
          judges: ['agent:keyword-judge'],
          hypotheses,
          references,
          dialogues,
        })
      )[0]!;
      // The 11 fixture inferences that have human references (of 36).
      expect(j.units).toBe(11);
      expect(Object.keys(j.means)).toEqual(['pa', 'ca', 'sa']);
      for (const v of Object.values(j.means)) expect(v).toBeGreaterThanOrEqual(0);
      expect(j.total).toBeCloseTo(j.means.pa! + j.means.ca! + j.means.sa!, 10);
    } finally {
      await store.close();
    }
  });
});
