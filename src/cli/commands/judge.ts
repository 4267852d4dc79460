import type { Command } from 'commander';
import { applyScorer, ConfigError, openStore, resolveRunId, scoreRun, validateJudgeModels } from '../../index.js';
import { configContext } from '../config-context.js';
import { readJson } from '../../core/index.js';
import { DEFAULT_GATES, type Aggregation } from '../../judges/index.js';
import { formatTextTable, formatUsd } from '../../report/index.js';
import { DEFAULT_DB, intOption } from '../options.js';

function parseGates(text: string | undefined): typeof DEFAULT_GATES {
  if (!text) return DEFAULT_GATES;
  const g = { ...DEFAULT_GATES };
  for (const part of text.split(',')) {
    const [k, v] = part.split('=');
    if (k === 'recovery' && Number(v) >= 0 && Number(v) <= 1) g.recovery = Number(v);
    else if (k === 'sd' && v && v.split(':').every((x) => Number(x) >= 0)) g.sd = v.split(':').map(Number);
    else throw new ConfigError(`--gates: expected recovery=R,sd=S1:S2, got "${part}"`);
  }
  return g;
}

/**
 * `score --json` prints `{ scorer, rubric: { name, sha256 }, scored, alreadyScored, judgeFailures, unscored, meanByField, family: [{ field, all, withoutInFamily, cells, inFamilyCells }] }`;
 * `judge validate --json` prints `{ rubric, results: [{ judge, recovery, recoveryByField, failures, anchors: [{ id, sd, mean }], pass, reasons }] }`.
 */
export function registerJudge(program: Command): void {
  program
    .command('score')
    .description(
      "score a stored run's responses with a judge panel, or with a plugin's scorer (no subject is re-run; judge calls are cached)",
    )
    .option('--rubric <file>', 'rubric file (YAML or JSON)')
    .option('--judge <spec...>', 'judge models (a panel when several)')
    .option('--scorer <name>', 'a scorer registered by a plugin of --config, instead of a judge panel')
    .option('--config <file>', 'config file: its judges (rubric, models, aggregation), plugins and database')
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--aggregate <how>', 'median, mean or majority', 'median')
    .option('--families <file>', 'JSON map of model spec or provider -> family, for the same-family analysis')
    .option('--api-key-env <name>', 'environment variable with the key for openai-compatible judges')
    .option('--structured-output', 'openai-compatible judges: the server takes response_format json_schema (hosted APIs always use it)')
    .option('--json', 'print JSON')
    .action(
      async (f: {
        rubric?: string;
        judge?: string[];
        scorer?: string;
        config?: string;
        structuredOutput?: boolean;
        runId?: string;
        db: string;
        aggregate: string;
        families?: string;
        apiKeyEnv?: string;
        json?: boolean;
      }) => {
        if (!['median', 'mean', 'majority'].includes(f.aggregate))
          throw new ConfigError(`--aggregate must be median, mean or majority, not "${f.aggregate}"`);
        const { config, registry } = await configContext(f.config);
        const families = f.families ? (readJson(f.families) as Record<string, string>) : undefined;
        const store = await openStore(f.db === DEFAULT_DB && config?.db ? config.db : f.db);
        try {
          const runId = await resolveRunId(store, f.runId);
          if (f.scorer) {
            const r = await applyScorer(store, runId, registry.scorer(f.scorer));
            if (f.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
            else
              process.stdout.write(
                `run ${runId}: ${r.scorer}: ${r.scored} scored, ${r.skipped} not applicable, mean ${r.mean === null ? '-' : r.mean.toFixed(3)}\n`,
              );
            return;
          }
          const rubric = f.rubric ?? config?.judges?.rubric;
          const judges = f.judge ?? config?.judges?.models;
          if (!rubric || !judges?.length)
            throw new ConfigError('score needs --rubric and --judge (or a config with judges), or --scorer NAME');
          const r = await scoreRun({
            store,
            runId,
            rubricPath: rubric,
            judges,
            aggregation: (f.aggregate === 'median' && config?.judges?.aggregation ? config.judges.aggregation : f.aggregate) as Aggregation,
            families,
            apiKeyEnv: f.apiKeyEnv ?? config?.apiKeyEnv,
            registry,
            structuredOutput: f.structuredOutput,
          });
          // Scripts must see failed judgments: exit 2 (as a run with failed trials), the count on stderr.
          if (r.judgeFailures > 0) {
            process.exitCode = 2;
            process.stderr.write(`mindscope: ${r.judgeFailures} judgment(s) failed (${r.unscored} trial(s) unscored)\n`);
          }
          if (f.json) {
            process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
            return;
          }
          process.stdout.write(
            `run ${runId}: ${r.scorer} (sha256 ${r.rubric.sha256.slice(0, 12)}...): ${r.scored} scored, ${r.alreadyScored} already scored, ${r.unscored} unscored, ${r.judgeFailures} judge failure(s); ${r.calls.made} judge call(s), ${r.calls.cached} from the cache, ${formatUsd(r.calls.costUsd)}\n`,
          );
          process.stdout.write(
            `${formatTextTable(
              ['field', 'mean', 'without in-family cells', 'cells', 'in-family'],
              r.family.map((x) => [
                x.field,
                x.all.toFixed(3),
                x.withoutInFamily === null ? '-' : x.withoutInFamily.toFixed(3),
                String(x.cells),
                String(x.inFamilyCells),
              ]),
            )}\n`,
          );
        } finally {
          await store.close();
        }
      },
    );

  program
    .command('judge')
    .description('judge panels')
    .command('validate')
    .description('score anchors K times with each judge: recovery and SD against gates, pass or fail per judge')
    .requiredOption('--rubric <file>', 'rubric file')
    .requiredOption(
      '--anchors <file>',
      'anchors (JSON, JSONL or YAML): [{ id, text, vars?, expected: { field: [low, high], ... } }] (fields left out are not counted in recovery)',
    )
    .requiredOption('--judge <spec...>', 'judge models')
    .option('--k <k>', 'repetitions per anchor', intOption('--k', 1), 5)
    .option('--gates <g>', 'recovery=0.8,sd=0.5:0.8 (SD gate per field, in rubric order)')
    .option('--db <path>', 'store, a SQLite file or postgres:// URL (for cost accounting; calls are not cached)', DEFAULT_DB)
    .option('--api-key-env <name>', 'environment variable with the key for openai-compatible judges')
    .option('--structured-output', 'openai-compatible judges: the server takes response_format json_schema')
    .option('--json', 'print JSON')
    .action(
      async (f: {
        rubric: string;
        structuredOutput?: boolean;
        anchors: string;
        judge: string[];
        k: number;
        gates?: string;
        db: string;
        apiKeyEnv?: string;
        json?: boolean;
      }) => {
        const store = await openStore(f.db);
        try {
          const out = await validateJudgeModels({
            store,
            rubricPath: f.rubric,
            anchorsPath: f.anchors,
            judges: f.judge,
            k: f.k,
            gates: parseGates(f.gates),
            apiKeyEnv: f.apiKeyEnv,
            structuredOutput: f.structuredOutput,
          });
          if (f.json) process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
          else
            process.stdout.write(
              `${formatTextTable(
                ['judge', 'recovery', 'failures', 'verdict', 'why', 'recovery by field'],
                out.results.map((r) => [
                  r.judge,
                  `${(r.recovery * 100).toFixed(1)}%`,
                  String(r.failures),
                  r.pass ? 'pass' : 'FAIL',
                  r.reasons.join('; '),
                  Object.entries(r.recoveryByField)
                    .map(([f, x]) => `${f} ${x === null ? '-' : `${(x * 100).toFixed(1)}%`}`)
                    .join(', '),
                ]),
              )}\n`,
            );
          if (out.results.some((r) => !r.pass)) process.exitCode = 3;
        } finally {
          await store.close();
        }
      },
    );
}
