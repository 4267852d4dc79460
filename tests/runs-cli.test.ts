// `mindscope runs` (a store's runs with their names, suites, models, accuracy, status, cost and
// date, in 100 columns or as JSON), `run --name` (stored with the run on SQLite and PostgreSQL,
// copied with it), `run` failing when a model gave no usable answer, `compare` taking subjects
// by spec, short name or id, and `view` saying what `report` says of a store that is not there.
// Real stores, the real CLI, a real local model server.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyStore, openStore, runAccuracy } from '../src/index.js';
import { cellOf } from '../src/analysis/index.js';
import { createTestSchema, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';
import { runCli } from './helpers/run-cli.js';
import { providerEnv, startModelServer, type ModelServer } from './helpers/servers.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'mindscope.js');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-runs-'));
const db = join(dir, 's.db');
let server: ModelServer;

const cli = (args: string[]) => runCli(args, { cwd: dir, env: providerEnv(server.url) });

interface RunRow {
  id: string;
  name: string | null;
  suites: string[];
  subjects: Array<{ spec: string; accuracy: number | null; items: number; failed: number; truncated: number }>;
  state: string;
  costUsd: number | null;
  createdAt: string;
}

beforeAll(async () => {
  server = await startModelServer();
  const base = ['run', 'generated-tom', '--db', db, '--json'];
  const named = await cli([
    ...base,
    '--model',
    'agent:oracle',
    'agent:random',
    '--limit',
    '6',
    '--run-id',
    'named',
    '--name',
    'baseline agents',
  ]);
  expect(named.code, named.stderr).toBe(0);
  // An unknown model stops its subject at once: its trials stay pending.
  const part = await cli([...base, '--model', 'agent:oracle', 'anthropic:unknown-model', '--limit', '3', '--run-id', 'part']);
  expect(part.code).toBe(2);
  const compat = await cli([
    ...base,
    '--model',
    'agent:random',
    `openai-compatible:${server.url}/v1#ok`,
    '--limit',
    '8',
    '--run-id',
    'compat',
  ]);
  expect(compat.code, compat.stderr).toBe(0);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await dropTestDatabases();
});

describe('mindscope runs', () => {
  it('lists each run with its name, suites, models, accuracy, status, cost and date, in 100 columns', async () => {
    const r = await cli(['runs', '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(100);
    expect(lines[0]).toMatch(/^run +name +suites +models +accuracy +status +cost +created$/);
    const store = await openStore(db);
    let oracle: number;
    let random: number;
    try {
      const table = await runAccuracy(store, 'named');
      oracle = cellOf(table, 'agent:oracle', 'all')!.accuracy;
      random = cellOf(table, 'agent:random', 'all')!.accuracy;
    } finally {
      await store.close();
    }
    const today = new Date().toISOString().slice(0, 10);
    // Newest first; one line per model, the run's columns on its first.
    const at = lines.findIndex((l) => l.startsWith('named '));
    expect(lines[at]).toMatch(
      new RegExp(`^named +baseline agents +generated-tom +agent:oracle +${(oracle * 100).toFixed(1)}% +complete +\\$0\\.0000 +${today}$`),
    );
    expect(lines[at + 1]).toMatch(new RegExp(`^ +agent:random +${(random * 100).toFixed(1)}%$`));
    expect(lines.findIndex((l) => l.startsWith('compat '))).toBeLessThan(at);
    expect(lines.find((l) => l.startsWith('part '))).toMatch(/ partial /);
    // An openai-compatible server's model by its short name, as reports show it.
    expect(r.stdout).toContain(`ok @127.0.0.1:${server.port}`);

    const json = JSON.parse((await cli(['runs', '--db', db, '--json'])).stdout) as RunRow[];
    expect(json.map((x) => x.id)).toEqual(['compat', 'part', 'named']);
    const named = json.find((x) => x.id === 'named')!;
    expect(named).toMatchObject({ name: 'baseline agents', suites: ['generated-tom'], state: 'complete', costUsd: 0 });
    expect(named.subjects.map((s) => [s.spec, s.accuracy, s.items])).toEqual([
      ['agent:oracle', oracle, 6],
      ['agent:random', random, 6],
    ]);
    expect(json.find((x) => x.id === 'part')!.subjects[1]).toMatchObject({ spec: 'anthropic:unknown-model', accuracy: null, items: 0 });
  });

  it('run --name names a run again (and no --name keeps the name); the name is copied with the store, to PostgreSQL too', async () => {
    const again = ['run', 'generated-tom', '--db', db, '--model', 'agent:oracle', 'agent:random', '--limit', '6', '--run-id', 'named'];
    expect((await cli([...again, '--name', 'oracle and random'])).code).toBe(0);
    expect((await cli(again)).code).toBe(0);
    const names = async (location: string) => {
      const store = await openStore(location);
      try {
        return Object.fromEntries((await store.listRuns()).map((r) => [r.id, r.name ?? null]));
      } finally {
        await store.close();
      }
    };
    expect(await names(db)).toEqual({ named: 'oracle and random', part: null, compat: null });
    const copy = join(dir, 'copy.db');
    await copyStore(db, copy);
    expect((await names(copy)).named).toBe('oracle and random');
    const bad = await cli([...again, '--name', '  ']);
    expect(bad.stderr).toMatch(/--name expects one line of text/);
  });

  it.skipIf(!pgAvailable)(`stores and replaces a run's name in PostgreSQL${pgSkipNote}`, async () => {
    const pg = await createTestSchema();
    await copyStore(db, pg);
    const store = await openStore(pg);
    try {
      expect((await store.getRun('named'))?.name).toBe('oracle and random');
      const run = (await store.getRun('named'))!;
      await store.createRun({ ...run, name: 'renamed' });
      await store.createRun({ id: run.id, createdAt: run.createdAt, config: run.config });
      expect((await store.getRun('named'))?.name).toBe('renamed');
      // Another identity under the same id keeps the name it has.
      await store.createRun({ ...run, config: { other: true }, name: 'intruder' });
      expect((await store.getRun('named'))?.name).toBe('renamed');
    } finally {
      await store.close();
    }
    const r = await cli(['runs', '--db', pg, '--json']);
    expect((JSON.parse(r.stdout) as RunRow[]).find((x) => x.id === 'named')?.name).toBe('renamed');
  });
});

describe('run, when a model gave no usable answer', () => {
  it('exits non-zero with one line naming the models whose every trial failed or was cut off', async () => {
    const r = await cli([
      'run',
      'generated-tom',
      '--db',
      db,
      '--run-id',
      'broken',
      '--limit',
      '2',
      '--max-tokens',
      '2',
      '--quiet',
      '--model',
      'agent:oracle',
      'anthropic:always-500',
      'anthropic:claude-haiku-4-5',
    ]);
    expect(r.code).toBe(2);
    const said = r.stderr.split('\n').filter((l) => l.startsWith('mindscope: '));
    expect(said).toEqual([
      'mindscope: no usable answer from anthropic:always-500, anthropic:claude-haiku-4-5: every trial failed or had its reply cut off (mindscope status --run-id broken shows why)',
    ]);
    const json = JSON.parse((await cli(['runs', '--db', db, '--json'])).stdout) as RunRow[];
    const broken = json.find((x) => x.id === 'broken')!;
    expect(broken.state).toBe('failed');
    expect(broken.subjects.map((s) => [s.spec, s.failed, s.truncated])).toEqual([
      ['agent:oracle', 0, 0],
      ['anthropic:always-500', 2, 0],
      ['anthropic:claude-haiku-4-5', 0, 2],
    ]);
  }, 60_000);
});

describe('compare and the viewer name subjects alike', () => {
  it('compare --subjects takes a spec, a short name or an id, and names the forms for an unknown one', async () => {
    const store = await openStore(db);
    const subjects = await store.runSubjects('compat');
    await store.close();
    const spec = `openai-compatible:${server.url}/v1#ok`;
    const id = subjects.find((s) => s.spec === spec)!.id;
    const random = subjects.find((s) => s.spec === 'agent:random')!.id;
    const bySpec = await cli(['compare', '--db', db, '--run-id', 'compat', '--subjects', `agent:random,${spec}`, '--json']);
    expect(bySpec.code, bySpec.stderr).toBe(0);
    const cells = JSON.parse(bySpec.stdout) as Array<{ a: string; b: string; group: string; n: number }>;
    expect(cells.find((c) => c.group === 'all')).toMatchObject({ a: 'agent:random', b: spec, n: 8 });
    for (const names of [`agent:random,ok @127.0.0.1:${server.port}`, `${random},${id}`]) {
      const r = await cli(['compare', '--db', db, '--run-id', 'compat', '--subjects', names, '--json']);
      expect(JSON.parse(r.stdout)).toEqual(cells);
    }
    const unknown = await cli(['compare', '--db', db, '--run-id', 'compat', '--subjects', 'agent:random,nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      `mindscope: --subjects: no subject "nobody" (a subject is named by its spec (openai:gpt-4o), its short name as reports show it, or its id (s-...)); the subjects: ${subjects.map((s) => `${s.spec} (${s.id})`).join(', ')}\n`,
    );
    expect((await cli(['compare', '--help'])).stdout.replace(/\s+/g, ' ')).toContain(
      "its short name as reports show it, or its id (s-...), as in the viewer's URLs",
    );
    expect((await cli(['view', '--help'])).stdout).toContain('#/trial/RUN?subject=S&suite=X&item=I&replicate=0');
  });
});

describe('view says what report says of a store that is not there', () => {
  it('a missing file, an empty --db, a folder: the same message and exit code', async () => {
    mkdirSync(join(dir, 'folder'), { recursive: true });
    for (const location of ['missing.db', '', 'folder']) {
      const report = await cli(['report', '--db', location, '--out', join(dir, 'out')]);
      const view = await cli(['view', '--db', location, '--port', '0']);
      const exported = await cli(['view', '--db', location, '--export', join(dir, 'exp')]);
      expect(report.code).toBe(1);
      expect(report.stderr).toMatch(/^mindscope: (no store at |--db is empty)/);
      for (const r of [view, exported]) expect([r.code, r.stderr]).toEqual([1, report.stderr]);
    }
    expect(existsSync(join(dir, 'missing.db'))).toBe(false);
    // compare, too, reads a store that must be there (it used to create an empty one).
    expect((await cli(['compare', '--db', 'missing.db'])).stderr).toMatch(/^mindscope: no store at .*missing\.db \(--db\)/);
    expect(existsSync(join(dir, 'missing.db'))).toBe(false);
  });

  it('a store without runs: report and view --export refuse it alike; view serves it, saying so', async () => {
    const empty = join(dir, 'empty.db');
    await (await openStore(empty)).close();
    const report = await cli(['report', '--db', empty, '--out', join(dir, 'out')]);
    expect(report.stderr).toBe(`mindscope: no runs in ${empty}\n`);
    const exported = await cli(['view', '--db', empty, '--export', join(dir, 'exp-empty')]);
    expect([exported.code, exported.stderr]).toEqual([1, report.stderr]);
    expect(existsSync(join(dir, 'exp-empty', 'index.html'))).toBe(false);
    const child = spawn(process.execPath, [BIN, 'view', '--db', empty, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const note = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stderr! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`mindscope view exited with ${code}`)));
      });
      expect(note).toBe(`note: no runs in ${empty}; the page shows runs as they are stored`);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
