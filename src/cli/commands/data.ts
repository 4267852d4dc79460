import type { Command } from 'commander';
import { type DatasetStatus, dataRoot, listDatasets } from '../../datasets.js';
import { fitTable, wrapText } from '../fit-table.js';
import { registerDataVerify } from './data-verify.js';

const WIDTH = 100;

/** `text` wrapped to the width, its further lines indented by `indent` spaces. */
function hanging(text: string, indent: number): string {
  const [first = '', ...rest] = wrapText(text, WIDTH - indent);
  return [first, ...rest.map((l) => `${' '.repeat(indent)}${l}`)].join('\n');
}

/** The datasets as a table of at most 100 columns, then their sources and citations, and where the cache is. */
function datasetsText(rows: readonly DatasetStatus[]): string {
  const table = fitTable(
    [
      { header: 'dataset' },
      { header: 'suites', shrink: 'wrap' },
      { header: 'cached' },
      { header: 'files', right: true },
      { header: 'MB', right: true },
      { header: 'licence', shrink: 'wrap' },
    ],
    rows.map((r) => [r.id, r.suites.join(', '), r.cached, String(r.files), (r.bytes / 1e6).toFixed(1), r.licence]),
    WIDTH,
  );
  const citations = rows.map((r) => `  ${hanging(`${r.id}: ${r.source}. ${r.citation}`, 4)}`);
  const cache = hanging(
    `Cache: ${dataRoot()} (set MINDSCOPE_CACHE to move it; MINDSCOPE_DATA_MIRROR to fetch from a mirror; mindscope data verify checks it)`,
    2,
  );
  return `${table}\n\nSources and citations:\n${citations.join('\n')}\n\n${cache}\n`;
}

/**
 * `data list --json` prints `[{ id, suites, licence, citation, source, files, bytes, cached, path }]`;
 * `data pull --json` prints `[{ id, fetched, present, path }]`.
 */
export function registerData(program: Command): void {
  const data = program
    .command('data')
    .description('the public ToM datasets: fetch them into the cache, list what is cached, verify the cached files');
  data
    .command('pull')
    .description('fetch datasets (by suite or dataset id) into the cache, each file checked against its SHA-256')
    .argument('[name...]', 'suite or dataset ids')
    .option('--all', 'every dataset in the manifest')
    .option('--json', 'print JSON')
    .action(async (names: string[], f: { all?: boolean; json?: boolean }) => {
      // The suites entry (the manifest's schema, the fetcher) is loaded here: `data list` needs none of it.
      const { pullDataset, readManifest, selectDatasets } = await import('../../suites/index.js');
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
      process.stdout.write(datasetsText(rows));
    });
  registerDataVerify(data);
}
