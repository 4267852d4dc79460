// The lazy command line (issue 18): `mindscope` loads only the file of the command being run, so
// the list of commands it shows without loading them must match what the files register.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { simulatePanel, writeMatrixCsv } from '../src/analysis/audit/index.js';
import { buildProgramFor, COMMAND_FILES } from '../src/cli/command-list.js';
import { buildProgram } from '../src/cli/program.js';

describe('lazy command line', () => {
  it('the top-level help without loading any command is the full program help', async () => {
    expect((await buildProgramFor([])).helpInformation()).toBe(buildProgram().helpInformation());
    expect((await buildProgramFor(['--help'])).helpInformation()).toBe(buildProgram().helpInformation());
  });

  it('each command file registers the commands listed for it, with the same help term and description', async () => {
    const help = new Command().createHelp();
    for (const file of COMMAND_FILES) {
      const program = new Command();
      (await file.load())(program);
      expect(program.commands.map((c) => ({ term: help.subcommandTerm(c), description: c.description() }))).toEqual(file.commands);
    }
  });

  it('the command being run is registered in full, every other one as a stand-in', async () => {
    const full = buildProgram();
    for (const args of [
      ['report', '--out', 'x'],
      ['help', 'suites'],
    ]) {
      const program = await buildProgramFor(args);
      const name = args[0] === 'help' ? args[1] : args[0];
      const real = program.commands.find((c) => c.name() === name)!;
      expect(real.helpInformation()).toBe(full.commands.find((c) => c.name() === name)!.helpInformation());
      expect(program.helpInformation()).toBe(full.helpInformation());
    }
  });

  it('an audit of matrix files in PCA mode loads the statistics, not the record schemas, the store, the parquet writer or ml-matrix', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-lazy-'));
    const cats = { belief: 30, desire: 30, emotion: 30, intention: 30, knowledge: 30 };
    const panel = simulatePanel({
      models: 8,
      benchmarks: ['A', 'B', 'C'].map((name) => ({ name, items: cats })),
      structure: 'single',
      seed: 1,
    });
    const specs = panel.matrices.map(({ name, matrix }) => {
      writeMatrixCsv(join(dir, `${name}.csv`), matrix);
      return `${name}=${join(dir, `${name}.csv`)}`;
    });
    // A module hook that names every file the command loads.
    writeFileSync(
      join(dir, 'hook.mjs'),
      "export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.startsWith('file:')) process.stderr.write('LOADED ' + r.url + '\\n'); return r; }",
    );
    writeFileSync(
      join(dir, 'register.mjs'),
      `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hook.mjs')).href)});`,
    );
    // And every package required (ml-matrix is required on first use, not imported).
    writeFileSync(
      join(dir, 'require-hook.cjs'),
      "const M = require('node:module'); const load = M._load; M._load = function (r, ...a) { process.stderr.write('LOADED ' + r + '\\n'); return load.call(this, r, ...a); };",
    );
    const bin = join(import.meta.dirname, '..', 'bin', 'mindscope.js');
    const r = spawnSync(
      process.execPath,
      [
        '--require',
        join(dir, 'require-hook.cjs'),
        '--import',
        join(dir, 'register.mjs'),
        bin,
        'audit',
        '--matrix',
        ...specs,
        '--json',
        '--bootstrap',
        '50',
        '--structure',
        'pca',
      ],
      {
        encoding: 'utf8',
      },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).convergence.cells.length).toBe(15);
    const loaded = r.stderr.split('\n').filter((l) => l.startsWith('LOADED '));
    expect(loaded.some((l) => l.includes('/analysis/audit/'))).toBe(true);
    for (const heavy of [
      '/node_modules/zod/',
      'LOADED ml-matrix',
      '/node_modules/ml-matrix/',
      '/node_modules/better-sqlite3/',
      '/node_modules/hyparquet-writer/',
      '/core/index.js',
      '/store/index.js',
      '/analysis/index.js',
      '/report/',
    ])
      expect(loaded.filter((l) => l.includes(heavy))).toEqual([]);
  });
});
