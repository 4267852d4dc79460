// The lazy command line (issue 18): `mindscope` loads only the file of the command being run, so
// the list of commands it shows without loading them must match what the files register: the
// kernel's and every plugin's (the built-in studies' manifests, a config file's plugins).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { simulatePanel, writeMatrixCsv } from '../src/studies/audit/analysis/index.js';
import type { PluginManifest } from '../src/app/index.js';
import { buildProgram, buildProgramFor, builtinManifests, commandDefinitions } from '../src/cli/command-list.js';

const sub = (program: Command, path: readonly string[]) => path.reduce((c, name) => c.commands.find((x) => x.name() === name)!, program);

describe('lazy command line', () => {
  it('the help without loading any command is the full program help, at the top and in a group of commands', async () => {
    const full = await buildProgram();
    expect((await buildProgramFor([])).helpInformation()).toBe(full.helpInformation());
    expect((await buildProgramFor(['--help'])).helpInformation()).toBe(full.helpInformation());
    // `analyze` lists the kernel's analyses (traces, time-of-day) and the studies' (dialtom's, director, triangles, vision).
    const analyze = sub(await buildProgramFor(['analyze', '--help']), ['analyze']);
    expect(analyze.helpInformation()).toBe(sub(full, ['analyze']).helpInformation());
    expect(analyze.commands.map((c) => c.name())).toEqual([
      'traces',
      'time-of-day',
      'dialtom',
      'dialtom-cross-task',
      'dialtom-retention',
      'dialtom-scale',
      'director',
      'triangles',
      'vision',
    ]);
  });

  it('each command definition of the kernel and of every built-in study registers the commands it declares, with the same help term and description', async () => {
    const help = new Command().createHelp();
    const manifests = builtinManifests();
    const declared = commandDefinitions(manifests);
    // The studies declare commands of their own, subcommands of their own commands, and commands in the kernel's `analyze` group.
    expect(declared.filter((d) => d.plugin !== 'mindscope').map((d) => `${d.plugin} ${d.definition.group ?? ''}`.trim())).toEqual([
      'dialtom',
      'dialtom dialtom',
      'dialtom analyze',
      'dialtom dialtom',
      'dialtom analyze',
      'enacttom',
      'storyturn',
      'vision analyze',
      'audit',
      'audit',
      'probes',
    ]);
    for (const { definition } of declared) {
      const parent = new Command();
      (await definition.load())(parent, { manifests });
      expect(parent.commands.map((c) => ({ term: help.subcommandTerm(c), description: c.description() }))).toEqual(definition.commands);
    }
  });

  it('the command being run is registered in full, every other one as a stand-in', async () => {
    const full = await buildProgram();
    // The words after `mindscope`, and the command they run (registered in full).
    const cases: [string[], string[]][] = [
      [['report', '--out', 'x'], ['report']],
      [['help', 'suites'], ['suites']],
      [['run', 'tomi'], ['run']],
      [['audit'], ['audit']],
      [
        ['embodied', 'verify'],
        ['embodied', 'verify'],
      ],
      [
        ['analyze', 'dialtom'],
        ['analyze', 'dialtom'],
      ],
      [
        ['analyze', 'help', 'vision'],
        ['analyze', 'vision'],
      ],
    ];
    for (const [args, path] of cases) {
      const program = await buildProgramFor(args);
      for (let depth = 1; depth <= path.length; depth++)
        expect(sub(program, path.slice(0, depth)).helpInformation()).toBe(sub(full, path.slice(0, depth)).helpInformation());
      expect(program.helpInformation()).toBe(full.helpInformation());
    }
    // `run` in full: its options and its action, not a stand-in.
    const run = sub(await buildProgramFor(['run']), ['run']);
    expect(run.options.map((o) => o.long)).toEqual(sub(full, ['run']).options.map((o) => o.long));
    expect(run.options.some((o) => o.long === '--model')).toBe(true);
  });

  it("a plugin's commands join the program, and one that takes a command's name or names no command to join is refused", async () => {
    const hello = {
      name: 'hello',
      commands: [
        {
          commands: [{ term: 'hello', description: 'say hello' }],
          load: async () => (program: Command) => void program.command('hello').description('say hello'),
        },
        {
          group: 'analyze',
          commands: [{ term: 'greetings', description: 'count greetings' }],
          load: async () => (analyze: Command) => void analyze.command('greetings').description('count greetings'),
        },
      ],
    } satisfies PluginManifest;
    const manifests = [...builtinManifests(), hello];
    const full = await buildProgram(manifests);
    expect((await buildProgramFor([], manifests)).helpInformation()).toBe(full.helpInformation());
    expect(full.commands.map((c) => c.name())).toContain('hello');
    expect(
      sub(full, ['analyze'])
        .commands.map((c) => c.name())
        .at(-1),
    ).toBe('greetings');
    const clash = { name: 'clash', commands: [{ commands: [{ term: 'run', description: 'x' }], load: hello.commands[0]!.load }] };
    await expect(buildProgramFor([], [...builtinManifests(), clash])).rejects.toThrow(
      'plugin clash: the command "run" is already mindscope\'s',
    );
    const stray = {
      name: 'stray',
      commands: [{ group: 'nothing', commands: [{ term: 'x', description: 'x' }], load: hello.commands[0]!.load }],
    };
    await expect(buildProgramFor([], [stray])).rejects.toThrow('plugin stray: no command "nothing" to add x to');
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
    // A module hook that names every file the command loads. It runs in the main thread
    // (registerHooks): lines written from register()'s hook thread can be lost at exit.
    writeFileSync(
      join(dir, 'register.mjs'),
      "import { registerHooks } from 'node:module'; registerHooks({ resolve(s, c, next) { const r = next(s, c); if (r.url.startsWith('file:')) process.stderr.write('LOADED ' + r.url + '\\n'); return r; } });",
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
    expect(loaded.some((l) => l.includes('/studies/audit/analysis/'))).toBe(true);
    // The study that declares the command is read from its manifest: no study is loaded as a plugin.
    expect(loaded.filter((l) => /\/studies\/[^/]+\/index\.js/.test(l))).toEqual([]);
    for (const heavy of [
      '/node_modules/zod/',
      'LOADED ml-matrix',
      '/node_modules/ml-matrix/',
      '/node_modules/better-sqlite3/',
      '/node_modules/hyparquet-writer/',
      '/core/index.js',
      '/store/index.js',
      '/dist/analysis/index.js',
      '/report/',
    ])
      expect(loaded.filter((l) => l.includes(heavy))).toEqual([]);
  });
});
