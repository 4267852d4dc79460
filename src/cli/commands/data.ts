import type { Command } from 'commander';
import { formatTextTable } from '../../report/index.js';
import { listDatasets, pullDataset, readManifest, selectDatasets } from '../../suites/index.js';

/**
 * `data list --json` prints `[{ id, suites, licence, citation, source, files, bytes, cached, path }]`;
 * `data pull --json` prints `[{ id, fetched, present, path }]`.
 */
export function registerData(program: Command): void {
  const data = program.command('data').description('the public ToM datasets: fetch them into the cache, list what is cached');
  data
    .command('pull')
    .description('fetch datasets (by suite or dataset id) into the cache, each file checked against its SHA-256')
    .argument('[name...]', 'suite or dataset ids')
    .option('--all', 'every dataset in the manifest')
    .option('--json', 'print JSON')
    .action(async (names: string[], f: { all?: boolean; json?: boolean }) => {
      const datasets = selectDatasets(names, f.all ?? false, readManifest());
      const out = [];
      for (const d of datasets) {
        const r = await pullDataset(d, {
          onFile: (id, file, action) => {
            if (action === 'fetched') process.stderr.write(`fetched ${id}/${file}\n`);
          },
        });
        out.push({ id: d.id, ...r });
        if (!f.json)
          process.stdout.write(
            `${d.id}: ${r.fetched} fetched, ${r.present} already cached (${r.path})\n  licence: ${d.licence}\n  cite: ${d.citation}\n`,
          );
      }
      if (f.json) process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    });
  data
    .command('list')
    .description('the datasets mindscope knows, whether they are cached, their licences and citations')
    .option('--json', 'print JSON')
    .action(async (f: { json?: boolean }) => {
      const rows = listDatasets();
      if (f.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      process.stdout.write(
        `${formatTextTable(
          ['dataset', 'suites', 'cached', 'files', 'MB', 'licence', 'source'],
          rows.map((r) => [r.id, r.suites.join(', '), r.cached, String(r.files), (r.bytes / 1e6).toFixed(1), r.licence, r.source]),
        )}\n\nCitations:\n${rows.map((r) => `  ${r.id}: ${r.citation}`).join('\n')}\n\nCache: ${rows[0]?.path.replace(/\/[^/]+$/, '') ?? ''} (set MINDSCOPE_CACHE to move it; MINDSCOPE_DATA_MIRROR to fetch from a mirror)\n`,
      );
    });
}
