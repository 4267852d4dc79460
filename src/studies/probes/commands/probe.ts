// `mindscope probe`: build a probe family's variants, run them through the runner into the store
// (one run per family; the same command continues it) and print each family's summary. With
// --run-id it summarises stored probe runs instead; --flags-out writes the shortcut flags in the
// item exclusion format that `audit` and `irt calibrate` read (--exclude-items).

import type { Command } from 'commander';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { ConfigError, createRegistry, definePlugin, evaluate, loadSuite, openStore, type Item } from '../../../index.js';
import { createRng, deriveSeed, type McqPayload } from '../../../core/index.js';
import { DEFAULT_DB, intOption, numberOption, printResult } from '../../../cli/toolkit.js';
import { itemFlagFile, probeSummary, type ProbeSummary } from '../analysis/index.js';
import { PROBE_FAMILIES, type ProbeFamily } from '../protocol/records.js';
import { probeItems, probeSuite, probeSuiteId } from '../suites.js';
import { ALTERATIONS, type Alteration } from '../world/alterations.js';
import { probeText } from './probe-text.js';

interface ProbeFlags {
  family: string;
  suite: string;
  data?: string;
  limit: number;
  count: number;
  orders: string;
  alterations: string;
  maxOrder: number;
  permutations: number;
  swaps: number;
  paraphrases: number;
  model?: string[];
  trials: number;
  seed: number;
  maxTokens?: number;
  template?: string;
  mcqScoring: string;
  concurrency: number;
  db: string;
  runId?: string[];
  alpha: number;
  flagsOut?: string;
  json?: boolean;
}

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function families(v: string): ProbeFamily[] {
  const out = list(v);
  const bad = out.filter((f) => !(PROBE_FAMILIES as readonly string[]).includes(f));
  if (bad.length || !out.length) throw new ConfigError(`--family must list ${PROBE_FAMILIES.join(', ')}, not "${v}"`);
  return out as ProbeFamily[];
}

function orders(v: string): number[] {
  const out = list(v).map(Number);
  if (!out.length || out.some((k) => !Number.isInteger(k) || k < 1 || k > 4))
    throw new ConfigError(`--orders must list orders 1 to 4, not "${v}"`);
  return out;
}

function alterations(v: string): Alteration[] {
  const out = list(v);
  const bad = out.filter((a) => !(ALTERATIONS as readonly string[]).includes(a));
  if (bad.length || !out.length) throw new ConfigError(`--alterations must list ${ALTERATIONS.join(', ')}, not "${v}"`);
  return out as Alteration[];
}

/** `n` of the items, a seeded sample in the suite's order (all of them when there are no more). */
function sample<T>(items: readonly T[], n: number, seed: number): T[] {
  if (items.length <= n) return [...items];
  const keep = new Set(
    createRng(seed)
      .shuffle(items.map((_, i) => i))
      .slice(0, n),
  );
  return items.filter((_, i) => keep.has(i));
}

/** Run one family and return its run id. */
async function runFamily(
  family: ProbeFamily,
  f: ProbeFlags,
  store: Awaited<ReturnType<typeof openStore>>,
): Promise<{ runId: string; items: number }> {
  const needsBase = family === 'invariance' || family === 'shortcut';
  let base: Item<McqPayload>[] = [];
  if (needsBase) {
    const loaded = await loadSuite(f.suite, { data: f.data, seed: f.seed, count: f.limit });
    base = sample(loaded.items as Item<McqPayload>[], f.limit, deriveSeed('probe-sample', f.suite, f.seed));
    const notMcq = base.find((it) => !Array.isArray((it.payload as Partial<McqPayload>).options));
    if (notMcq) throw new ConfigError(`suite ${f.suite} is not a multiple-choice suite (item ${notMcq.id} has no options)`);
  }
  const opts = {
    permutations: f.permutations,
    swaps: f.swaps,
    paraphrases: f.paraphrases,
    seed: f.seed,
    count: f.count,
    orders: orders(f.orders),
    alterations: alterations(f.alterations),
    maxOrder: f.maxOrder,
  };
  const items = probeItems(family, f.suite, base, opts);
  const id = probeSuiteId(family, f.suite);
  const registry = createRegistry([definePlugin({ name: 'probe-run', suites: [probeSuite(id, items)] })]);
  const spec = {
    suites: [id],
    models: f.model!,
    trials: f.trials,
    seed: f.seed,
    ...(f.template ? { template: f.template } : {}),
    ...(f.mcqScoring !== 'generate' ? { scoring: f.mcqScoring as 'loglik' | 'loglik-norm' } : {}),
    ...(f.maxTokens ? { settings: { maxTokens: f.maxTokens } } : {}),
  };
  // The run's identity: what it runs, the variants' settings and the items themselves.
  const identity = createHash('sha256')
    .update(JSON.stringify({ spec, opts: needsBase ? opts : { ...opts, permutations: 0, swaps: 0, paraphrases: 0 }, items }))
    .digest('hex')
    .slice(0, 12);
  const runId = `probe-${family}-${needsBase ? `${f.suite}-` : ''}${identity}`;
  const result = await evaluate(spec, {
    store,
    registry,
    runId,
    name: `probe ${family}${needsBase ? ` of ${f.suite}` : ''}`,
    concurrency: f.concurrency,
    onWarning: (w) => process.stderr.write(`warning: ${w}\n`),
  });
  if (result.failed) process.exitCode = 2;
  return { runId: result.runId, items: items.length };
}

export function registerProbe(program: Command): void {
  program
    .command('probe')
    .description(
      'validity probes: invariance (option order, names, objects, paraphrases), sensitivity (belief-story alterations), shortcut baselines (no story) and explicit belief tracking',
    )
    .option('--family <list>', `probe families, comma-separated: ${PROBE_FAMILIES.join(', ')}`, 'invariance,sensitivity,shortcut,beliefs')
    .option('--suite <id>', 'the multiple-choice suite the invariance and shortcut probes vary', 'generated-tom')
    .option('--data <path>', "the suite's data (a released benchmark's folder or file)")
    .option('--limit <n>', 'base items of the suite (a seeded sample of a larger suite)', intOption('--limit', 1), 20)
    .option('--count <n>', 'generated questions per belief order (sensitivity), stories (beliefs)', intOption('--count', 1), 4)
    .option('--orders <list>', 'belief orders of the sensitivity probes', '1,2,3,4')
    .option('--alterations <list>', `sensitivity alterations: ${ALTERATIONS.join(', ')}`, ALTERATIONS.join(','))
    .option('--max-order <k>', 'highest belief order listed in belief tracking', intOption('--max-order', 1, 4), 2)
    .option('--permutations <n>', 'option orders per item, the original included (cyclic rotations)', intOption('--permutations', 1), 4)
    .option('--swaps <n>', 'name swaps (and object swaps on generated items) per item', intOption('--swaps', 0), 1)
    .option('--paraphrases <n>', 'question templates per item, the original included (at most 6)', intOption('--paraphrases', 1, 6), 3)
    .option('--model <spec...>', 'subjects (e.g. agent:oracle agent:options-only llamacpp:model.gguf)')
    .option('--trials <n>', 'replicates per item', intOption('--trials', 1), 1)
    .option('--seed <s>', 'seed of the generated stories and the variants', intOption('--seed', 0), 0)
    .option('--max-tokens <n>', 'output budget per call', intOption('--max-tokens', 1))
    .option('--template <file>', 'multiple-choice prompt template (file or built-in name)')
    .option(
      '--mcq-scoring <mode>',
      'generate (read the chosen letter from the reply), loglik or loglik-norm (rank the options by log-likelihood; llamacpp: models)',
      'generate',
    )
    .option('--concurrency <n>', 'calls in flight per endpoint', intOption('--concurrency', 1), 4)
    .option('--db <path>', 'store, a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--run-id <id...>', 'summarise these stored probe runs instead of running')
    .option(
      '--alpha <a>',
      'level of the shortcut test (one-sided exact binomial, per item and subject)',
      numberOption('--alpha', 0, 1),
      0.05,
    )
    .option('--flags-out <file>', 'write the items answerable without their story (an item exclusion file for audit and irt calibrate)')
    .option('--json', 'print JSON')
    .action(async (f: ProbeFlags) => {
      const store = await openStore(f.db);
      try {
        let runIds = f.runId ?? [];
        if (!runIds.length) {
          if (!f.model?.length)
            throw new ConfigError('give the subjects with --model SPEC... (or --run-id to summarise stored probe runs)');
          for (const family of families(f.family)) runIds.push((await runFamily(family, f, store)).runId);
        } else runIds = [...runIds];
        const summaries: ProbeSummary[] = [];
        for (const id of runIds) {
          if (!(await store.getRun(id))) throw new ConfigError(`no run "${id}" in ${store.location}`);
          summaries.push(await probeSummary(store, id, { alpha: f.alpha }));
        }
        const shortcut = summaries.find((s) => s.shortcut)?.shortcut;
        if (f.flagsOut) {
          if (!shortcut) throw new ConfigError('--flags-out needs a shortcut probe run (--family shortcut)');
          writeFileSync(f.flagsOut, `${JSON.stringify(itemFlagFile(shortcut), null, 2)}\n`);
        }
        printResult(f.json, { runs: summaries }, summaries.map(probeText).join('\n'));
      } finally {
        await store.close();
      }
    });
}
