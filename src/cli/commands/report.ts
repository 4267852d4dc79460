import { Option, type Command } from 'commander';
import type { CommandContext } from '../../app/index.js';
import { ConfigError, pluginManifests, reportFlags, writeRunReport } from '../../run-report.js';
import { loadConfigOnce } from '../command-context.js';
import { withExistingRun } from '../existing-store.js';
import { DEFAULT_DB } from '../default-db.js';

/** The report's own options: a section's flag may not take one of these names. */
const OWN = new Set(['out', 'run-id', 'db', 'config', 'force', 'json', 'help']);

/**
 * `report --json` prints `{ runId, path }`. Each flag a plugin's report section declares
 * (`--audit`) is an option; the plugins are the built-in studies and the config's (`--config`).
 */
export function registerReport(program: Command, ctx: CommandContext = { manifests: pluginManifests() }): void {
  const cmd = program
    .command('report')
    .description('write a self-contained HTML report of a run')
    .requiredOption('--out <dir>', 'output folder (index.html is written there)')
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB);
  const sectionFlags = reportFlags(ctx.manifests).map((f) => {
    if (!/^[a-z][a-z0-9-]*$/.test(f.name) || OWN.has(f.name))
      throw new ConfigError(`report section flag "${f.name}": a flag is a lower-case word not among ${[...OWN].join(', ')}`);
    const option = new Option(`--${f.name}`, f.help);
    cmd.addOption(option);
    return { name: f.name, key: option.attributeName() };
  });
  cmd
    .option('--config <file>', 'config file whose plugins add report sections (and their flags)')
    .option('--force', 'replace an existing report in --out')
    .option('--json', 'print JSON')
    .action(async (flags: { out: string; runId?: string; db: string; config?: string; force?: boolean; json?: boolean }) => {
      const on = Object.fromEntries(sectionFlags.map((f) => [f.name, cmd.getOptionValue(f.key) === true]));
      const manifests = flags.config ? pluginManifests((await loadConfigOnce(flags.config)).plugins) : ctx.manifests;
      await withExistingRun(flags.db, flags.runId, async (store, runId) => {
        const path = await writeRunReport(store, runId, flags.out, { flags: on, force: flags.force, manifests });
        process.stdout.write(flags.json ? `${JSON.stringify({ runId, path })}\n` : `wrote ${path}\n`);
      });
    });
}
