import type { Command } from 'commander';
import { builtinSuiteListing } from '../../builtin-studies.js';
import { fitTable } from '../fit-table.js';
import { intOption } from '../number-options.js';

// The library is loaded in the actions, not here: `mindscope suites` without --config prints the
// built-in suites from the plugins' manifests and loads none of it.

/**
 * `mindscope items SUITE --json` prints
 * `{ suite, count, byCategory: {category: n}, byAbility: {label: n}, warnings: [text], first: item | null }`.
 */
export function registerItems(program: Command): void {
  program
    .command('items')
    .description('load and validate a suite; print its counts')
    .argument('<suite>', 'suite id')
    .option('--data <path>', 'data folder (or file for mcq/cogtom)')
    .option('--seed <s>', 'seed for generated suites', intOption('--seed', 0), 0)
    .option('--limit <n>', 'items to generate (generated suites)', intOption('--limit', 1))
    .option('--fields <map>', 'field mapping for the mcq suite')
    .option('--config <file>', 'config file whose plugins add suites')
    .option('--json', 'print JSON')
    .action(
      async (suite: string, flags: { data?: string; seed: number; limit?: number; fields?: string; config?: string; json?: boolean }) => {
        const [{ configContext }, { parseFieldMap }, { formatTextTable }] = await Promise.all([
          import('../config-context.js'),
          import('../options.js'),
          import('../../report/index.js'),
        ]);
        const { registry } = await configContext(flags.config);
        const definition = registry.suite(suite);
        if (flags.data !== undefined) registry.refuseGeneratedData(suite, flags.data);
        const { items, warnings } = await definition.load({
          data: flags.data,
          seed: flags.seed,
          count: flags.limit,
          fields: flags.fields ? parseFieldMap(flags.fields) : undefined,
        });
        const count = (key: (i: (typeof items)[number]) => string) => {
          const out: Record<string, number> = {};
          for (const it of items) out[key(it)] = (out[key(it)] ?? 0) + 1;
          return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
        };
        const byCategory = count((i) => i.category);
        const byAbility = count((i) => i.ability ?? '');
        if (flags.json) {
          process.stdout.write(
            `${JSON.stringify({ suite, count: items.length, byCategory, byAbility, warnings, first: items[0] ?? null }, null, 2)}\n`,
          );
          return;
        }
        process.stdout.write(`${suite}: ${items.length} items (${definition.describe})\n\n`);
        process.stdout.write(
          `${formatTextTable(
            ['category', 'items'],
            Object.entries(byCategory).map(([k, v]) => [k, String(v)]),
          )}\n`,
        );
        for (const w of warnings) process.stderr.write(`warning: ${w}\n`);
      },
    );

  program
    .command('suites')
    .description('list the suite ids')
    .option('--config <file>', 'config file whose plugins add suites')
    .option('--json', 'print JSON: [{ id, protocol, describe, needsData }]')
    .action(async (flags: { config?: string; json?: boolean }) => {
      const suites = flags.config
        ? (await (await import('../config-context.js')).configContext(flags.config)).registry.suites()
        : builtinSuiteListing();
      const list = suites.map((s) => ({ id: s.id, protocol: s.protocol, describe: s.describe, needsData: s.needsData }));
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        return;
      }
      const columns = [{ header: 'suite' }, { header: 'protocol' }, { header: 'description', shrink: 'wrap' as const }];
      process.stdout.write(
        `${fitTable(
          columns,
          list.map((s) => [s.id, s.protocol, s.describe]),
          100,
        )}\n`,
      );
    });
}
