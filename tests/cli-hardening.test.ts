// The command line under bad input and for scripts (issue 10, items 4 and 8): exit codes of
// `score`, numeric options checked, an all-blank model column dropped by the audit, rubric
// files checked field by field, stores that are not there refused, outputs not overwritten.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/command-list.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(__dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-hard-'));

const cli = (args: string[]) => runCli(args, { cwd: dir });

let server: ModelServer;
beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('run "npm run build" before the CLI tests (npm test does)');
  server = await startModelServer();
  expect(
    (await cli(['run', 'generated-tom', '--limit', '6', '--model', 'agent:oracle', '--db', 'runs.db', '--run-id', 'r1', '--quiet'])).code,
  ).toBe(0);
});
afterAll(() => server.stop());

const RUBRIC = (prompt: string, extra = '') => `name: corr\nprompt: "${prompt}"\nfields:\n  - { name: score, min: 0, max: 5 }\n${extra}`;

describe('score', () => {
  it('exits 2 when judgments fail, and a failed score pins no rubric', async () => {
    writeFileSync(join(dir, 'corr.yaml'), RUBRIC('R: {response} E: {expected}'));
    const failing = await cli([
      'score',
      '--db',
      'runs.db',
      '--rubric',
      'corr.yaml',
      '--judge',
      `openai-compatible:${server.url}/v1#judge-range`,
      '--json',
    ]);
    expect(failing.code).toBe(2);
    expect(failing.stderr).toMatch(/6 judgment\(s\) failed \(6 trial\(s\) unscored\)/);
    expect(JSON.parse(failing.stdout)).toMatchObject({ scored: 0, judgeFailures: 6, unscored: 6 });
    // A bad placeholder fails before any score is written: nothing pinned either.
    writeFileSync(join(dir, 'corr.yaml'), RUBRIC('R: {response} {nosuch}'));
    const bad = await cli(['score', '--db', 'runs.db', '--rubric', 'corr.yaml', '--judge', 'agent:exact-judge']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/corr\.yaml: the prompt uses \{nosuch\}/);
    // The corrected rubric under the same name is accepted, and then pinned.
    writeFileSync(join(dir, 'corr.yaml'), RUBRIC('Response: {response} Expected: {expected}'));
    const good = await cli(['score', '--db', 'runs.db', '--rubric', 'corr.yaml', '--judge', 'agent:exact-judge', '--json']);
    expect(good.stderr).toBe('');
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ scored: 6, judgeFailures: 0 });
    writeFileSync(join(dir, 'corr.yaml'), RUBRIC('Changed: {response} Expected: {expected}'));
    const changed = await cli(['score', '--db', 'runs.db', '--rubric', 'corr.yaml', '--judge', 'agent:exact-judge']);
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/corr\.yaml: run r1 was scored with rubric "corr" .*: refusing to mix rubrics/);
  });

  it('checks rubric files field by field, naming the file', async () => {
    const cases: Array<[string, RegExp]> = [
      [RUBRIC('{response}', 'keywords: {score: kitchen}\n'), /k\.yaml: keywords\.score must be a list of words, got "kitchen"/],
      [RUBRIC('{response}', 'keywords: [a, b]\n'), /k\.yaml: rubric field "keywords" must map score fields to lists of words/],
      ['name: k\nprompt: "{response}"\nfields: [kitchen]\n', /k\.yaml: fields\[0\] must be an object/],
      ['name: k\nprompt: "{response}"\nfields:\n  - { name: s, min: "", max: 5 }\n', /k\.yaml: fields\[0\] \(s\): needs numbers min < max/],
      [
        'name: k\nprompt: "{response}"\nfields:\n  - { name: s, min: 0, max: 5, integer: maybe }\n',
        /k\.yaml: fields\[0\] \(s\): "integer" must be true or false/,
      ],
      [RUBRIC('{response}', 'keyword: {score: [a]}\n'), /k\.yaml: unknown rubric field "keyword"/],
    ];
    for (const [text, error] of cases) {
      writeFileSync(join(dir, 'k.yaml'), text);
      const r = await cli(['score', '--db', 'runs.db', '--rubric', 'k.yaml', '--judge', 'agent:keyword-judge']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(error);
      expect(r.stderr).not.toMatch(/TypeError/);
    }
  });
});

describe('numeric options', () => {
  it('refuses NaN and words where numbers are expected, naming the flag', async () => {
    for (const [args, error] of [
      [['audit', '--matrix', 'a.csv', '--threshold', 'NaN'], /--threshold expects a number between -1 and 1, got "NaN"/],
      [['audit', '--matrix', 'a.csv', '--tau-min', 'abc'], /--tau-min expects a number between -1 and 1, got "abc"/],
      [['audit', '--matrix', 'a.csv', '--folds', '2.5'], /--folds expects an integer of at least 2, got "2\.5"/],
      [['audit', '--matrix', 'a.csv', '--bootstrap', ''], /--bootstrap expects an integer of at least 10, got ""/],
      [['simulate', 'panel', '--out', 'x', '--null-share', '1.5'], /--null-share expects a number between 0 and 1, got "1\.5"/],
      [['irt', 'simulate', '--out', 'x', '--mean-log-a', 'Infinity'], /--mean-log-a expects a number/],
      [
        ['run', 'generated-tom', '--model', 'agent:oracle', '--timeout', '0x10'],
        /--timeout expects a number between 0\.001 and 2147483\.647, got "0x10"/,
      ],
    ] as Array<[string[], RegExp]>) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(error);
    }
  });
});

describe('audit', () => {
  it('drops a model column that is blank in every row instead of aborting', async () => {
    expect(
      (await cli(['simulate', 'panel', '--out', 'panel', '--models', '6', '--benchmarks', 'a,b', '--items', '10', '--seed', '1'])).code,
    ).toBe(0);
    for (const b of ['a', 'b']) {
      const lines = readFileSync(join(dir, 'panel', `${b}.csv`), 'utf8')
        .trim()
        .split('\n');
      writeFileSync(join(dir, 'panel', `${b}-blank.csv`), lines.map((l, i) => `${l},${i === 0 ? 'silent-model' : ''}`).join('\n'));
    }
    const r = await cli([
      'audit',
      '--matrix',
      'a=panel/a-blank.csv',
      'b=panel/b-blank.csv',
      '--bootstrap',
      '10',
      '--seeds',
      '1',
      '--structure',
      'pca',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.models).toHaveLength(6);
    expect(out.droppedModels).toEqual(['silent-model']);
    expect(out.benchmarks.map((b: { items: number; droppedIncomplete: number }) => [b.items, b.droppedIncomplete])).toEqual([
      [50, 0],
      [50, 0],
    ]);
    // One name for two matrices (before: audited as two benchmarks of the same name).
    const twice = await cli(['audit', '--matrix', 'a=panel/a.csv', 'a=panel/b.csv']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toBe('mindscope: --matrix a=panel/b.csv: the name "a" is given twice; name each benchmark once\n');
    const single = await cli(['audit', '--matrix', 'a=panel/a.csv', '--structure', 'pca', '--bootstrap', '10', '--json']);
    expect(single.code).toBe(0);
    expect(single.stderr).toMatch(/^warning: one benchmark \(a\): stages 1 and 3 compare benchmarks, so their tables are empty/);
    expect(JSON.parse(single.stdout).convergence.cells).toEqual([]);
    const control = await cli(['audit', '--matrix', 'a=panel/a.csv', 'b=panel/b.csv', '--control', 'b=panel/general1.csv']);
    expect(control.stderr).toMatch(/--control b=panel\/general1\.csv: the name "b" is given twice/);
  });
});

describe('stores and outputs', () => {
  it('status, report and export refuse a missing --db instead of creating it', async () => {
    for (const args of [['status'], ['report', '--out', 'rep-missing'], ['export', 'matrix', '--out', 'missing.csv']]) {
      const r = await cli([...args, '--db', 'no-such.db']);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(`no store at ${join(dir, 'no-such.db')} (--db)`);
    }
    expect(existsSync(join(dir, 'no-such.db'))).toBe(false);
  });

  it('report refuses to overwrite an existing report unless --force', async () => {
    expect((await cli(['report', '--db', 'runs.db', '--out', 'rep'])).code).toBe(0);
    const again = await cli(['report', '--db', 'runs.db', '--out', 'rep']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/rep\/index\.html exists: refusing to overwrite it \(--out\); add --force/);
    const forced = await cli(['report', '--db', 'runs.db', '--out', 'rep', '--force', '--json']);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toEqual({ runId: 'r1', path: 'rep/index.html' });
  });

  it('bad --out paths give one clear line, not a raw errno message', async () => {
    writeFileSync(join(dir, 'a-file'), 'x');
    const cases: Array<[string[], RegExp]> = [
      [
        ['export', 'matrix', '--out', 'no/such/folder/m.csv'],
        /^mindscope: cannot write no\/such\/folder\/m\.csv: its folder does not exist \(ENOENT\)\n$/,
      ],
      [
        ['report', '--out', 'a-file/rep'],
        /^mindscope: cannot write a-file\/rep: a part of the path is a file, not a folder \(ENOTDIR\)\n$/,
      ],
    ];
    for (const [args, error] of cases) {
      const r = await cli([...args, '--db', 'runs.db']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(error);
    }
  });

  it('export --replicate of a replicate the run does not have is an error, not an empty matrix', async () => {
    const r = await cli(['export', 'matrix', '--db', 'runs.db', '--out', 'rep5.csv', '--replicate', '5']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/run r1 has no scored trial of replicate 5 \(its replicates are 0 to 0\)/);
    expect(existsSync(join(dir, 'rep5.csv'))).toBe(false);
    expect((await cli(['export', 'matrix', '--db', 'runs.db', '--out', 'rep0.csv', '--replicate', '0'])).code).toBe(0);
  });

  it('a read-only store is named in the error (needs root for chattr, or a non-root user for chmod)', async () => {
    const ro = join(dir, 'ro.db');
    writeFileSync(ro, readFileSync(join(dir, 'runs.db')));
    const root = process.getuid?.() === 0;
    if (!root) chmodSync(ro, 0o444);
    const locked = root ? spawnSync('chattr', ['+i', ro]).status === 0 : true;
    if (!locked) return; // root on a file system without chattr: nothing can make the file read-only here
    try {
      const r = await cli(['run', 'generated-tom', '--limit', '2', '--model', 'agent:reality', '--db', ro, '--quiet']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`${ro.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: (the store is read-only|cannot open the store)`));
    } finally {
      if (root) spawnSync('chattr', ['-i', ro]);
    }
  });
});

describe('--json', () => {
  it('every command that prints results takes --json', async () => {
    const missing: string[] = [];
    const walk = (c: Command, path: string) => {
      for (const sub of c.commands) {
        const name = `${path} ${sub.name()}`.trim();
        if (sub.commands.length) walk(sub, name);
        else if (!sub.options.some((o) => o.long === '--json')) missing.push(name);
      }
    };
    walk(await buildProgram(), '');
    expect(missing).toEqual([]);
  });

  it('the commands that gained --json print one parseable JSON document on stdout', async () => {
    const json = async (args: string[]) => {
      const r = await cli([...args, '--json']);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return JSON.parse(r.stdout);
    };
    expect((await json(['suites'])).find((s: { id: string }) => s.id === 'tombench')).toMatchObject({ protocol: 'mcq', needsData: true });
    // The text list is words: left-aligned, the description unpadded (it was right-aligned to 270 columns).
    expect((await cli(['suites'])).stdout.split('\n')[2]).toMatch(/^tombench {2,}mcq {2,}ToMBench, 2,860 items in 20 tasks$/);
    expect(await json(['simulate', 'panel', '--out', 'pj', '--models', '4', '--benchmarks', 'a,b', '--items', '3'])).toMatchObject({
      out: 'pj',
      matrices: ['a', 'b'],
      controls: ['general1', 'general2'],
    });
    expect((await json(['embodied', 'generate', '--out', 'tasks.json', '--n', '2'])).tasks).toBe(2);
    expect(await json(['export', 'matrix', '--db', 'runs.db', '--out', 'j.csv'])).toMatchObject({ runId: 'r1', path: 'j.csv', items: 6 });
    const demo = await json(['demo', '--out', 'demo', '--items', '5']);
    expect(demo).toMatchObject({ planned: 25, done: 25, failed: 0, report: join('demo', 'report', 'index.html') });
    // The demo owns its folder: a second demo replaces its report.
    expect((await json(['demo', '--out', 'demo', '--items', '5'])).skipped).toBe(25);
    expect(await json(['irt', 'simulate', '--out', 'isim', '--models', '6', '--items', '3'])).toBeTruthy();
    expect(await json(['irt', 'calibrate', '--matrix', join('isim', 'matrix.csv'), '--out', 'bank.json'])).toBeTruthy();
    expect((await json(['irt', 'report', '--bank', 'bank.json', '--out', 'irt-report'])).files).toContain('item-curves.svg');
  });
});

describe('provenance', () => {
  it('records versions, commit, platform, data and template hashes beside the run; status, report and export show them; the run id is unchanged', async () => {
    const run = await cli(['run', 'generated-tom', '--limit', '6', '--model', 'agent:oracle', '--db', 'prov.db', '--json', '--quiet']);
    expect(run.code).toBe(0);
    // The same id as before provenance was recorded (mindscope 0.1 derived it the same way).
    expect(JSON.parse(run.stdout).runId).toBe('run-c0e115c7b7c0');
    const status = JSON.parse((await cli(['status', '--db', 'prov.db', '--json'])).stdout);
    expect(status.provenance).toHaveLength(1);
    const p = status.provenance[0];
    const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
    expect(p).toMatchObject({
      mindscope: JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
      gitCommit: git.status === 0 && existsSync(join(ROOT, '.git')) ? git.stdout.trim() : null,
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      suites: [{ suite: 'generated-tom', items: 6, itemsSha256: expect.stringMatching(/^[0-9a-f]{64}$/), dataset: null }],
      templates: [{ suite: 'generated-tom', template: 'default', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }],
    });
    // Continuing the run with nothing changed adds no record.
    expect((await cli(['run', 'generated-tom', '--limit', '6', '--model', 'agent:oracle', '--db', 'prov.db', '--quiet'])).code).toBe(0);
    expect(JSON.parse((await cli(['status', '--db', 'prov.db', '--json'])).stdout).provenance).toHaveLength(1);
    expect((await cli(['status', '--db', 'prov.db'])).stdout).toMatch(
      new RegExp(`mindscope ${p.mindscope}, git ${p.gitCommit ? p.gitCommit.slice(0, 12) : 'none'}, Node ${p.node}`),
    );
    expect((await cli(['report', '--db', 'prov.db', '--out', 'prov-report'])).code).toBe(0);
    const html = readFileSync(join(dir, 'prov-report', 'index.html'), 'utf8');
    expect(html).toContain('<h2>Provenance</h2>');
    expect(html).toContain(p.suites[0].itemsSha256);
    expect(html).toContain(p.templates[0].sha256);
    expect((await cli(['export', 'matrix', '--db', 'prov.db', '--out', 'prov.csv'])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'prov.csv.provenance.json'), 'utf8'))).toEqual({ runId: 'run-c0e115c7b7c0', provenance: [p] });
  });

  it('a public suite records its manifest entry and a changed template its own hash', async () => {
    const data = join(ROOT, 'tests', 'fixtures', 'data');
    const r = await cli([
      'run',
      'tombench',
      '--data',
      data,
      '--limit',
      '2',
      '--model',
      'agent:oracle',
      '--template',
      'tombench',
      '--db',
      'prov2.db',
      '--quiet',
    ]);
    expect(r.code).toBe(0);
    const [p] = JSON.parse((await cli(['status', '--db', 'prov2.db', '--json'])).stdout).provenance;
    expect(p.suites[0].dataset).toEqual({
      id: 'tombench',
      revision: expect.any(String),
      manifestSha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const sha = createHash('sha256')
      .update(readFileSync(join(ROOT, 'templates', 'tombench.yaml'), 'utf8'))
      .digest('hex');
    expect(p.templates).toEqual([{ suite: 'tombench', template: 'tombench', sha256: sha }]);
  });
});

describe('edited data under a run', () => {
  it('re-runs the items whose content changed and says how many; --frozen refuses instead', async () => {
    const file = join(dir, 'edit.jsonl');
    const row = (id: string, q: string) => JSON.stringify({ id, q, options: ['the basket', 'the box'], answer: 'A' });
    writeFileSync(file, [row('a', 'Where is the ball?'), row('b', 'Where is the cat?'), row('c', 'Where is the hat?')].join('\n'));
    const args = [
      'run',
      'mcq',
      '--data',
      'edit.jsonl',
      '--fields',
      'id=id,question=q,options=options,answer=answer,defaultCategory=belief',
    ];
    const run = async (extra: string[] = []) =>
      await cli([...args, '--model', 'agent:first-option', '--db', 'edit.db', '--json', '--quiet', ...extra]);
    const first = await run();
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ done: 3, changedItems: 0 });
    // Unchanged: nothing runs again.
    expect(JSON.parse((await run()).stdout)).toMatchObject({ done: 0, skipped: 3, changedItems: 0 });
    // One item edited (its options reversed: the right answer is now B).
    writeFileSync(
      file,
      [
        row('a', 'Where is the ball?'),
        JSON.stringify({ id: 'b', q: 'Where is the cat?', options: ['the box', 'the basket'], answer: 'B' }),
        row('c', 'Where is the hat?'),
      ].join('\n'),
    );
    const frozen = await run(['--frozen']);
    expect(frozen.code).toBe(1);
    expect(frozen.stderr).toMatch(/1 item\(s\) changed since their trials were made \(mcq\/b\); --frozen refuses/);
    const again = await run();
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/warning: 1 item\(s\) changed since the run was last made \(mcq\/b\): their 1 trial\(s\) run again/);
    expect(JSON.parse(again.stdout)).toMatchObject({ done: 1, skipped: 2, changedItems: 1 });
    // The re-run trial scored the new item: first-option now answers wrong on b.
    const exp = await cli(['export', 'matrix', '--db', 'edit.db', '--out', 'edit.csv']);
    expect(exp.code).toBe(0);
    const lines = readFileSync(join(dir, 'edit.csv'), 'utf8').trim().split('\n');
    expect(lines.slice(1).map((l) => l.split(',').at(-1))).toEqual(['1', '0', '1']);
  });

  it('says when data given to a suite that generates its items is not read (it was ignored silently), naming the suite that reads such files', async () => {
    // Warned, not refused: a run made so before continues under the same command (its identity holds --data).
    const r = await cli([
      'run',
      'generated-enacttom',
      '--data',
      'tasks.json',
      '--limit',
      '1',
      '--model',
      'agent:planner',
      '--db',
      'gen0.db',
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'warning: --data tasks.json is not read: the suite generated-enacttom generates its items; to run your own file use the suite enacttom (enacttom --data FILE)\n',
    );
    expect(JSON.parse(r.stdout)).toMatchObject({ done: 1 });
    // The store a failed command opened is not left behind empty; nor is an import's that failed.
    expect((await cli(['run', 'generated-tom', '--model', 'nonsense', '--db', 'gen.db'])).code).toBe(1);
    expect(existsSync(join(dir, 'gen.db'))).toBe(false);
    writeFileSync(join(dir, 'not-a-log.json'), '{"bad": 1}');
    expect((await cli(['import', 'inspect', 'not-a-log.json', '--db', 'imp.db'])).stderr).toMatch(
      /not-a-log\.json: not an Inspect eval log/,
    );
    expect(existsSync(join(dir, 'imp.db'))).toBe(false);
    expect((await cli(['items', 'generated-tom', '--data', 'nowhere'])).stderr).toBe(
      'mindscope: --data nowhere: the suite generated-tom generates its items and reads no data\n',
    );
    // A run's --data is the data root of the suites that read files: a generated suite beside them runs.
    const mixed = await cli(
      ['run', 'generated-tom', 'tombench', '--data', join(ROOT, 'tests', 'fixtures', 'data'), '--limit', '2'].concat([
        '--model',
        'agent:answer-key',
        '--db',
        'gen.db',
        '--json',
        '--quiet',
      ]),
    );
    expect(JSON.parse(mixed.stdout)).toMatchObject({ done: 4, failed: 0 });
  });

  it('compare says which replicate it compares, and names the range of a replicate that is not there', async () => {
    const made = await cli([
      'run',
      'generated-tom',
      '--limit',
      '8',
      '--trials',
      '2',
      '--model',
      'agent:oracle',
      'agent:random',
      '--db',
      'cmp.db',
      '--run-id',
      'c2',
      '--quiet',
    ]);
    expect(made.code).toBe(0);
    const plain = await cli(['compare', '--db', 'cmp.db', '--run-id', 'c2', '--json']);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe('note: run c2 has 2 replicates; compared on replicate 0 (--replicate R picks another)\n');
    expect((await cli(['compare', '--db', 'cmp.db', '--run-id', 'c2', '--replicate', '1', '--json'])).stderr).toBe('');
    const missing = await cli(['compare', '--db', 'cmp.db', '--run-id', 'c2', '--replicate', '5']);
    expect(missing.stderr).toBe('mindscope: run c2 has no scored trial of replicate 5 (its replicates are 0 to 1)\n');
  });

  it('a config module that throws is named with the line of the throw', async () => {
    writeFileSync(join(dir, 'throw.config.mjs'), 'const x = 1;\nthrow new Error("boom");\nexport default {};\n');
    const r = await cli(['run', '--config', 'throw.config.mjs']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`mindscope: ${join(dir, 'throw.config.mjs')}:2: cannot load the config: boom\n`);
  });

  it('refuses a run id stored with another configuration before discarding any trial', async () => {
    const args = (limit: string) => ['run', 'generated-tom', '--limit', limit, '--model', 'agent:oracle', '--model', 'agent:random'];
    const first = await cli([...args('6'), '--db', 'refuse.db', '--run-id', 'r9', '--json', '--quiet']);
    expect(JSON.parse(first.stdout)).toMatchObject({ done: 12 });
    // Another --limit generates other items under the same ids: before, their trials were
    // deleted as "changed" and only then was the run refused.
    for (let i = 0; i < 2; i++) {
      const refused = await cli([...args('3'), '--db', 'refuse.db', '--run-id', 'r9']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/run r9 exists with a different configuration \(limit\)/);
      expect(refused.stderr).not.toMatch(/run again/);
    }
    const status = JSON.parse((await cli(['status', '--db', 'refuse.db', '--run-id', 'r9', '--json'])).stdout);
    expect(status.totals).toMatchObject({ planned: 12, done: 12, pending: 0 });
  });
});
