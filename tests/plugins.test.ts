// Extension without forking: a toy protocol, suite, provider and scorer written outside src/
// against the public API, registered by a config file and run end to end, through the CLI and
// through the library.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRegistry, evaluate, loadConfig, openStore, runAccuracy } from '../src/index.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(__dirname, '..');
const BIN = join(ROOT, 'bin', 'mindscope.js');
const CONFIG = join(__dirname, 'fixtures', 'toy-plugin', 'toy.config.yaml');
const cli = (args: string[]) => runCli(args);
// A process of its own: a module that never settles is noticed when the process's event loop runs dry.
const cliProcess = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

describe('plugins and config files', () => {
  it('runs a toy protocol, suite and provider from a config file through the CLI, then scores with a plugin scorer', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'mindscope-plugin-')), 'm.db');
    const run = await cli(['run', '--config', CONFIG, '--db', db, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    // 12 items x 2 replicates x 3 subjects.
    expect(summary.done).toBe(72);
    expect(summary.failed).toBe(0);
    const store = await openStore(db);
    try {
      const acc = await runAccuracy(store, summary.runId);
      const overall = (spec: string) => acc.cells.find((c) => c.subject === spec && c.group === 'all')?.accuracy;
      expect(overall('letters:exact')).toBe(1);
      expect(overall('agent:oracle')).toBe(1);
      // Every toy word has the letter at least once, so "0" is always wrong.
      expect(overall('letters:zero')).toBe(0);
    } finally {
      await store.close();
    }
    // The same command continues the same run: nothing to do.
    const again = JSON.parse((await cli(['run', '--config', CONFIG, '--db', db, '--json'])).stdout);
    expect(again.runId).toBe(summary.runId);
    expect(again.skipped).toBe(72);
    expect(again.done).toBe(0);
    // The plugin's scorer re-scores the stored trials without calling a model.
    const scored = await cli(['score', '--config', CONFIG, '--db', db, '--scorer', 'toy:closeness', '--json']);
    expect(scored.code).toBe(0);
    const r = JSON.parse(scored.stdout);
    expect(r).toMatchObject({ scorer: 'toy:closeness', scored: 72, skipped: 0 });
    // exact and oracle score 1; zero scores 1/(1+count) < 1.
    expect(r.mean).toBeGreaterThan(2 / 3);
    expect(r.mean).toBeLessThan(1);
    // The suite is listed with its protocol.
    expect((await cli(['suites', '--config', CONFIG])).stdout).toMatch(/letter-count\s+letter-count\s+toy: count a letter/);
  });

  it('runs the same study through the library, and refuses a config with a bad field naming the file and field', async () => {
    const config = await loadConfig(CONFIG);
    const registry = createRegistry(config.plugins);
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-plugin-lib-'));
    const store = await openStore(join(dir, 'm.db'));
    try {
      const r = await evaluate(
        { ...config.spec, suites: config.spec.suites ?? [], models: ['letters:exact'], trials: 1 },
        { store, registry },
      );
      expect(r.done).toBe(12);
      expect((await runAccuracy(store, r.runId)).cells.find((c) => c.group === 'all')?.accuracy).toBe(1);
    } finally {
      await store.close();
    }
    // Without the plugin the suite is unknown.
    expect(() => createRegistry().suite('letter-count')).toThrow(/unknown suite "letter-count"/);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'suites: [letter-count]\ntrials: many\n');
    await expect(loadConfig(bad)).rejects.toThrow(/bad\.yaml: trials: /);
    const missing = join(dir, 'missing.yaml');
    copyFileSync(CONFIG, missing);
    await expect(loadConfig(missing)).rejects.toThrow(/plugin .*letter-count\.ts does not exist/);
    // A config module that does not parse or that throws: the error names the file (the line of the
    // throw where the stack gives it: in Node, checked in cli-hardening.test.ts; not under Vitest's loader).
    const unparsable = join(dir, 'cut.config.mjs');
    writeFileSync(unparsable, 'export default {\n  suites: [\n');
    await expect(loadConfig(unparsable)).rejects.toThrow(/cut\.config\.mjs: cannot load the config: /);
    const throwing = join(dir, 'throw.config.mjs');
    writeFileSync(throwing, 'const x = 1;\nthrow new Error("boom");\nexport default {};\n');
    await expect(loadConfig(throwing)).rejects.toThrow(/throw\.config\.mjs(:2)?: cannot load the config: boom/);
  });

  it('a plugin or config module whose top-level await never settles is an error naming it, not a silent exit 13', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-plugin-stuck-'));
    // Nothing is left that could resolve the promise: Node would end the process with code 13.
    const stuck = 'await new Promise(() => {});\nexport default { name: "stuck" };\n';
    writeFileSync(join(dir, 'stuck.mjs'), stuck);
    writeFileSync(join(dir, 'stuck.ts'), stuck);
    writeFileSync(join(dir, 'stuck.config.mjs'), stuck);
    writeFileSync(join(dir, 'js.yaml'), 'plugins: [./stuck.mjs]\n');
    writeFileSync(join(dir, 'ts.yaml'), 'plugins: [./stuck.ts]\n');
    for (const [config, module, what] of [
      ['js.yaml', 'stuck.mjs', 'plugin'],
      ['ts.yaml', 'stuck.ts', 'plugin'],
      ['stuck.config.mjs', 'stuck.config.mjs', 'config'],
    ]) {
      const r = cliProcess(['suites', '--config', join(dir, config!)]);
      expect(r.stderr).toBe(
        `mindscope: ${join(dir, module!)}: cannot load the ${what}: its top-level await never settles (it waits on a promise that nothing left running can resolve)\n`,
      );
      expect(r.status).toBe(1);
    }
  });

  it("adds a plugin's commands from a config file: a command of its own and one in the `analyze` group, listed in the help and run", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-plugin-commands-'));
    const dist = (file: string) => JSON.stringify(pathToFileURL(join(ROOT, 'dist', file)).href);
    // A plugin written as a user would, on the built package's entry points (mindscope, mindscope/cli).
    writeFileSync(
      join(dir, 'greet.mjs'),
      `import { definePlugin } from ${dist('index.js')};
import { intOption, printResult } from ${dist('cli/toolkit.js')};
export default definePlugin({
  name: 'greet',
  commands: [
    {
      commands: [{ term: 'greet [options]', description: 'say hello' }],
      load: async () => (program, ctx) => {
        program.command('greet').description('say hello')
          .option('--config <file>', 'the config file that adds this command')
          .option('--times <n>', 'how many times', intOption('--times', 1), 1)
          .option('--json', 'print JSON')
          .action((f) => printResult(f.json, { times: f.times, plugins: ctx.manifests.map((m) => m.name) }, 'hello'));
      },
    },
    {
      group: 'analyze',
      commands: [{ term: 'greetings [options]', description: 'count the greetings' }],
      load: async () => (analyze) => {
        analyze.command('greetings').description('count the greetings')
          .option('--config <file>', 'the config file that adds this command')
          .action(() => process.stdout.write('3 greetings\\n'));
      },
    },
  ],
});
`,
    );
    const config = join(dir, 'greet.yaml');
    writeFileSync(config, 'plugins: [./greet.mjs]\n');
    const help = cliProcess(['--help', '--config', config]);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/\n {2}greet \[options\] +say hello\n/);
    expect(cliProcess(['analyze', '--help', '--config', config]).stdout).toMatch(/\n {2}greetings \[options\] +count the greetings\n/);
    // Without the config file the commands are not there.
    expect(cliProcess(['--help']).stdout).not.toMatch(/greet/);
    expect(cliProcess(['greet']).stderr).toMatch(/unknown command 'greet'/);
    // Run: the command is told the plugins in play (the built-in studies, then the config's).
    const greet = cliProcess(['greet', '--times', '2', '--json', `--config=${config}`]);
    expect(greet.stderr).toBe('');
    expect(JSON.parse(greet.stdout)).toEqual({ times: 2, plugins: expect.arrayContaining(['dialtom', 'greet']) });
    expect(JSON.parse(greet.stdout).plugins.at(-1)).toBe('greet');
    expect(cliProcess(['greet', '--times', '0', '--config', config]).stderr).toMatch(/--times expects an integer of at least 1, got "0"/);
    const greetings = cliProcess(['analyze', 'greetings', '--config', config]);
    expect(greetings.stderr).toBe('');
    expect(greetings.stdout).toBe('3 greetings\n');
  });
});
