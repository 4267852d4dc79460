// The page of measured figures, docs/performance.md, written by the bench scripts themselves: when
// a bench finishes it calls recordPerformance(bench, rows), which rewrites that bench's section
// of the page and leaves every other section as it was. A row is keyed by its bench and figure:
// measuring a figure again replaces its row, a figure not measured this time keeps its row and
// the run line it came from. Each run line names the machine (CPU model, cores, Node version)
// and the date, so a figure is read beside the peer or limit of the same run.
// `--no-record` (or `--smoke`, the benches' check that they run) on any bench's command line leaves the page alone.

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { fileURLToPath } from 'node:url';

const DEFAULT_PAGE = fileURLToPath(new URL('../docs/performance.md', import.meta.url));

/** The benches, in page order: what each measures and beside what. */
export const BENCHES = [
  {
    id: 'runner',
    command: 'node bench/runner.mjs [--quick] [--before OTHER/dist] [--promptfoo DIR] [--instructions]',
    measures:
      'MCQ trials per second through the runner (store and call cache on) against a local OpenAI-compatible server that answers at once; client CPU per trial; store bytes per trial; peak memory at 5,000 and 50,000 trials (not with `--quick`).',
    beside:
      'a loop sending byte-identical requests with the built-in fetch at the same concurrency (target: mindscope at 0.90 of it or more), a bare node:http loop (the ceiling: the most any client gets from this server here; target: client CPU per trial at most 2x its), another build (`--before`), promptfoo (`--promptfoo DIR`), each an arm of every interleaved round.',
  },
  {
    id: 'audit',
    command: 'node bench/audit.mjs [--python python3] [--rounds 3] [--sizes MxI,...] [--full MxI,...] [--no-paper]',
    measures:
      'the audit on simulated matrices at the audit paper’s scale (27 models; 2,860, 5,401 and 8,513 items), a scaling table of `--structure pca` (27-300 models x 3,000-30,000 items per benchmark) and the full structure (parallel analysis and EFA) at 300 models x 10,000 items.',
    beside:
      'a vectorised NumPy/SciPy implementation of stages 1-3 and PCA (`bench/audit_peer.py`), in interleaved rounds; the full audit against its 60 s limit.',
  },
  {
    id: 'irt',
    command:
      'node bench/irt.mjs [--smoke] [--rounds 3] [--models 2pl,3pl,bifactor] [--items 2860,16774] [--python python3] [--only 1,2,3,4] [--all]',
    measures:
      '2PL and 3PL calibrations of 300 models x 2,860 and 16,774 items and a bifactor one of 300 x 2,860 (CPU time of one thread, best and median of interleaved rounds); standard errors, the panel’s abilities and item fit; recovery, tiny-benchmark estimates and adaptive tests on simulated panels.',
    beside:
      'the same estimators as vectorised NumPy with one BLAS thread (`bench/irt_peer.py`), in the same rounds, whose estimates are compared with ours.',
  },
  {
    id: 'irt-multidim',
    command: 'node bench/irt-multidim.mjs [--smoke]',
    measures:
      'tiny-benchmark and adaptive accuracy estimates from a multidimensional (M2PL) bank, k chosen by held-out likelihood, on one- and two-dimensional simulated panels of ToMBench’s size (200 models calibrate, 100 held out): mean and max absolute error, 95% interval coverage.',
    beside:
      'the one-dimensional 2PL bank’s estimates on the same split, the mean of k random items, and the bound set by the true parameters.',
  },
  {
    id: 'report',
    command: 'node bench/report.mjs [--items 20000] [--rounds 5]',
    measures: '`mindscope report` on a run of 100,000 trials (20,000 generated-tom items x 5 reference agents).',
    beside: 'the 1 s limit, and the CLI’s start-up alone (`mindscope --help`) in the same rounds.',
  },
  {
    id: 'startup',
    command: 'node bench/startup.mjs [--rounds 10]',
    measures: 'CPU time of `mindscope suites` and `mindscope data list`, commands that only print what mindscope knows.',
    beside: '`mindscope --help` in the same interleaved rounds (target: at most 1.5x its CPU).',
  },
  {
    id: 'view',
    command: 'node bench/view.mjs [--trials 100000]',
    measures:
      'the viewer on a 100,000-trial store in Chromium: first paint, the first page of trials, a filter, a sort, a deep page and a search over every transcript.',
    beside: 'nothing measured in the same run: read the times against each other.',
  },
  {
    id: 'export-trials',
    command:
      'node bench/export-trials.mjs [--items 2000] [--replicates 10] [--rounds 3] [--memory-replicates N] [--dist OTHER/dist] [--before OTHER/dist] [--instructions] [--smoke]',
    measures:
      '`export trials` (JSONL) and `export inspect` on 100,000 trials of reference agents: CPU time (best and median of interleaved rounds) and peak memory, also at 20,000 trials of the same items (and, with `--memory-replicates`, a longer run).',
    beside:
      'a plain scan of the same rows (the run’s trial rows with transcript and scores as stored, one JSON.stringify a line; limit 2x), in the same rounds; peak memory at 20,000 trials beside 100,000 and the longer run (flat: no more), the longer run also with V8’s young generation kept small (`node --max-semi-space-size=8`).',
  },
  {
    id: 'store-size',
    command:
      'node bench/store-size.mjs [--items 500] [--subjects 2] [--replicates 3] [--single 3000] [--dist OTHER/dist] [--postgres URL | --no-postgres] [--smoke]',
    measures:
      'bytes per MCQ trial of a SQLite store (the file) and of a PostgreSQL one (every table after VACUUM: heap, TOAST, indexes and their maps), in all and by table, at 500 items x 2 subjects x 3 replicates and at one trial per item.',
    beside:
      'the same run as gzipped JSONL (`export trials` through gzip; limit 8x) and as zipped Inspect logs; for PostgreSQL also its floor: the least any layout of its schema could take (the schema’s pages when empty, a 16-byte key and its index for each cached call, and the content at gzip’s rate); another build with `--dist`.',
  },
  {
    id: 'item-search',
    command: 'node bench/item-search.mjs [--items 5000]',
    measures: 'the viewer’s text search over a run’s items: one page and the match count, four searches in a row.',
    beside: 'the first search (which inflates every item) beside the later ones.',
  },
  {
    id: 'embodied',
    command: 'node bench/embodied.mjs [--tasks 300] [--team-tasks 100]',
    measures:
      'generating and verifying 300 EnactToM tasks; verifier time by agents and depth; world throughput replaying plans; the reference teams through the runner.',
    beside: 'the targets: 300 tasks under 60 s, verifier median under 100 ms and worst under 2 s, 50,000 agent-actions per second.',
  },
  {
    id: 'http-clients',
    command: 'node bench/http-clients.mjs [--requests 10000] [--rounds 3]',
    measures:
      'client CPU per model call for each way of sending it: the built-in fetch, node:http, the lean fetch, the openai SDK over it, and mindscope’s openai provider.',
    beside: 'the built-in fetch, in interleaved rounds.',
  },
  {
    id: 'workers',
    command: 'node bench/workers.mjs [--items 240]',
    measures:
      'PostgreSQL queue workers against a server answering after 200 ms: throughput with 1, 2 and 4 processes; the store’s overhead per trial.',
    beside: 'the single process (targets: 1.8x with 2 workers, 3.2x with 4).',
  },
  {
    id: 'soak',
    command: 'node bench/soak.mjs [--items 10000] [--trials 5] [--kills 3]',
    measures:
      '50,000 trials through injected 429s, 500s, malformed and hung replies, reset connections and SIGKILLs of the runner and the server.',
    beside: 'the invariants: every trial recorded once, none lost, the response matrix equal to a clean run’s.',
  },
];

const HEAD = `# Performance

<!-- Generated: each bench script in bench/ rewrites its own section when it finishes (bench/performance-table.mjs). Edit the scripts, not this page. -->

Performance is measured by the scripts in \`bench/\`, never by tests. Each prints its figures
beside a peer or a limit measured in the same run (rounds interleaved where there is a peer) and
writes them here: one section per script, a line per run naming the machine and the date, a row
per figure with mindscope's value, the peer's or the limit, and their ratio. Read a figure against
its peer from the same run, not against a figure from another machine: on a shared machine the
absolute times move with the load. Build first (\`npm run build\`); add \`--no-record\` to run a
bench without touching this page. Where the load moves CPU time more than the difference to be
read, \`--instructions\` (runner, export-trials) also counts each arm's instructions under
valgrind's callgrind (\`apt-get install valgrind\`), once each. On a quiet machine two counts of
the same build agree to within half a percent, so their ratio holds where the CPU times' does
not; under load they move by a few percent (V8 compiles on other threads, and the runner commits
its writes in groups timed by the clock). A count weighs every instruction alike and runs one
thread at a time: read it beside the CPU time, not in its place.

| script | measures | beside |
| --- | --- | --- |
`;

/** The machine a figure was measured on, as one line. */
export function machineDescription() {
  const model = (cpus()[0]?.model ?? 'unknown CPU').replace(/\s+/g, ' ').trim();
  return `${model}, ${availableParallelism()} cores, Node ${process.version}`;
}

const escapeCell = (text) => String(text).replaceAll('|', '\\|').replaceAll('\n', ' ');
const splitRow = (line) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replaceAll('\\|', '|'));

/** Each bench's runs and rows as the page holds them. */
export function parsePerformancePage(markdown) {
  const sections = new Map();
  let current = null;
  for (const line of markdown.split('\n')) {
    const marker = /^<!-- bench:([\w-]+) -->$/.exec(line.trim());
    if (marker) {
      current = { runs: new Map(), rows: [] };
      sections.set(marker[1], current);
      continue;
    }
    if (!current) continue;
    const run = /^- Run (\d+), (.*)$/.exec(line);
    if (run) current.runs.set(run[1], run[2]);
    else if (line.startsWith('| ') && !line.startsWith('| figure |') && !/^\|\s*-{3}/.test(line)) {
      const [figure, value, peer, ratio, runNo] = splitRow(line);
      current.rows.push({ figure, value, peer, ratio, run: runNo });
    }
  }
  return sections;
}

/** Ratios print with two decimals (or as given when text). */
function formatRatio(ratio) {
  if (ratio === null || ratio === undefined || ratio === '') return '';
  return typeof ratio === 'number' ? (Number.isFinite(ratio) ? ratio.toFixed(2) : '') : String(ratio);
}

/** The page with `bench`'s section updated by one run's rows; every other section kept. */
export function updatePerformancePage(markdown, bench, run, rows) {
  if (!BENCHES.some((b) => b.id === bench)) throw new Error(`performance table: unknown bench ${bench}`);
  const sections = parsePerformancePage(markdown);
  const old = sections.get(bench) ?? { runs: new Map(), rows: [] };
  const fresh = new Map(rows.map((r) => [r.figure, r]));
  const NEW = 'new';
  const merged = old.rows.map((r) => {
    const f = fresh.get(r.figure);
    return f ? { ...f, run: NEW } : r;
  });
  for (const r of rows) if (!old.rows.some((o) => o.figure === r.figure)) merged.push({ ...r, run: NEW });
  // Runs still referenced, oldest first, the new one last; numbered from 1 again.
  const order = [...old.runs.keys(), NEW].filter((k) => merged.some((r) => r.run === k));
  const number = new Map(order.map((k, i) => [k, String(i + 1)]));
  const runs = new Map(order.map((k) => [number.get(k), k === NEW ? run : old.runs.get(k)]));
  sections.set(bench, {
    runs,
    rows: merged.map((r) => ({ ...r, ratio: formatRatio(r.ratio), run: number.get(r.run) })),
  });
  return renderPerformancePage(sections);
}

/** The whole page from its sections. */
export function renderPerformancePage(sections) {
  const overview = BENCHES.map((b) => `| [\`bench/${b.id}.mjs\`](#${b.id}) | ${escapeCell(b.measures)} | ${escapeCell(b.beside)} |`);
  const body = BENCHES.map((b) => {
    const s = sections.get(b.id);
    const lines = [`## ${b.id}`, '', `\`${b.command}\``, '', `<!-- bench:${b.id} -->`];
    if (!s || s.rows.length === 0) lines.push(`Not measured on the machine behind this page yet: run \`node bench/${b.id}.mjs\`.`);
    else {
      for (const [n, text] of s.runs) lines.push(`- Run ${n}, ${text}`);
      lines.push('', '| figure | mindscope | peer or limit | ratio | run |', '| --- | --- | --- | --- | --- |');
      for (const r of s.rows)
        lines.push(`| ${[r.figure, r.value, r.peer ?? '', r.ratio ?? '', r.run].map((c) => escapeCell(c ?? '')).join(' | ')} |`);
    }
    return lines.join('\n');
  });
  return `${HEAD}${overview.join('\n')}\n\n${body.join('\n\n')}\n`;
}

/**
 * Writes one run of `bench` into the page: rows of { figure, value, peer, ratio } (value and
 * peer as printed, with units; ratio a number or text, mindscope's value over the peer's unless
 * the figure says otherwise). Skipped with --no-record and --smoke.
 */
export function recordPerformance(bench, rows, options = {}) {
  // --smoke: a bench run at tiny sizes to check that it works; its figures mean nothing.
  if (process.argv.includes('--no-record') || process.argv.includes('--smoke') || rows.length === 0) return;
  const page = options.page ?? DEFAULT_PAGE;
  const args = process.argv
    .slice(2)
    .filter((a) => a !== '--no-record')
    .map((a) => (a === '' ? "''" : a));
  const command = options.command ?? ['node', `bench/${bench}.mjs`, ...args].join(' ');
  const date = options.date ?? new Date().toISOString().slice(0, 10);
  const run = `${date}: \`${command}\` on ${options.machine ?? machineDescription()}`;
  const before = existsSync(page) ? readFileSync(page, 'utf8') : '';
  writeFileSync(page, updatePerformancePage(before, bench, run, rows));
  console.log(`performance: ${rows.length} row(s) of bench/${bench}.mjs written to ${page}`);
}
