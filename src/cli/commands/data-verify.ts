import type { Command } from 'commander';
import type { FileCheck } from '../../suites/index.js';
import { printResult } from '../output.js';

const short = (sha: string | null) => (sha ? `${sha.slice(0, 12)}...` : '-');

function line(c: FileCheck): string {
  const where = `${c.dataset}/${c.path}`;
  if (c.status !== 'MISMATCH') return `${c.status.padEnd(8)}  ${where}`;
  return `MISMATCH  ${where}: ${c.bytes} bytes with SHA-256 ${short(c.sha256)}; the manifest records ${c.expectedBytes} bytes with ${short(c.expectedSha256)}`;
}

/**
 * `data verify`: every file of the cached datasets (or of those named) read back and checked
 * against the SHA-256 and size the manifest records; exit code 1 when a file is MISMATCH or
 * MISSING. `--json` prints `{ cache, ok, files: [{ dataset, path, status, expectedSha256,
 * expectedBytes, sha256, bytes }] }`.
 */
export function registerDataVerify(data: Command): void {
  data
    .command('verify')
    .description(
      'check the cached files against the SHA-256 and size the manifest records: OK, MISMATCH or MISSING each (exit 1 unless all OK)',
    )
    .argument('[name...]', 'suite or dataset ids (default: every dataset with a file in the cache)')
    .option('--all', 'every dataset in the manifest, cached or not')
    .option('--json', 'print JSON')
    .action(async (names: string[], f: { all?: boolean; json?: boolean }) => {
      // Loaded here, not with the command: `data list` registers this command too.
      const { dataRoot, isCached, readManifest, selectDatasets, verifyDataset } = await import('../../suites/index.js');
      const manifest = readManifest();
      const datasets =
        names.length || f.all ? selectDatasets(names, f.all ?? false, manifest) : manifest.datasets.filter((d) => isCached(d));
      const files: FileCheck[] = [];
      for (const d of datasets) files.push(...(await verifyDataset(d)));
      const bad = files.filter((c) => c.status !== 'OK');
      const count = (s: FileCheck['status']) => files.filter((c) => c.status === s).length;
      const ids = [...new Set(bad.map((c) => c.dataset))];
      const summary = datasets.length
        ? `${files.length} file(s) of ${datasets.length} dataset(s) checked: ${count('OK')} OK, ${count('MISMATCH')} MISMATCH, ${count('MISSING')} MISSING${
            ids.length ? `; mindscope data pull ${ids.join(' ')} fetches them again` : ''
          }`
        : `no dataset is cached in ${dataRoot()} (mindscope data pull NAME fetches one)`;
      printResult(f.json, { cache: dataRoot(), ok: bad.length === 0, files }, [...files.map(line), summary].join('\n'));
      if (bad.length) process.exitCode = 1;
    });
}
