import type { Command } from 'commander';
import { ConfigError, openStore, resolveRunId } from '../../../index.js';
import { summarizeEpisodes, type EpisodeSummary } from '../index.js';
import { formatTextTable } from '../../../report/index.js';
import { intOption, DEFAULT_DB } from '../../../cli/toolkit.js';

const pct = (x: number | null) => (x === null || Number.isNaN(x) ? '-' : `${(x * 100).toFixed(1)}`);
/** A Pass figure over the planned attempts, starred when some of them are missing. */
const pass = (x: number | null, partial: boolean) => `${pct(x)}${partial && x !== null ? '*' : ''}`;

/** `embodied results` as text: the metrics table, the partial scopes over the attempts made, failure modes and examples. */
function formatEpisodeResults(runId: string, k: number, s: Pick<EpisodeSummary, 'metrics' | 'failures' | 'trialsPlanned'>): string {
  const { metrics, failures } = s;
  const interval = (r: { lower: number; upper: number }) => (Number.isNaN(r.lower) ? '-' : `[${pct(r.lower)}, ${pct(r.upper)}]`);
  const rows = metrics.flatMap((m) =>
    m.scopes.map((x) => [
      m.subject,
      x.scope,
      String(x.tasks),
      String(x.runs),
      `${pct(x.functional.avg)} ± ${pct(x.functional.se)}`,
      interval(x.functional),
      pass(x.functional.passAtK, x.functional.partial),
      pass(x.functional.passHatK, x.functional.partial),
      `${pct(x.literal.avg)} ± ${pct(x.literal.se)}`,
      interval(x.literal),
      pass(x.literal.passAtK, x.literal.partial),
      pass(x.literal.passHatK, x.literal.partial),
      x.divergentProbes ? `${pct(x.divergentAccuracy)} (${x.divergentProbes})` : '-',
    ]),
  );
  const out = [
    `run ${runId}: functional (task success) and literal (all probes right), % (Avg ± binomial SE over the runs made, as the paper reports it; 95% CI over tasks; Pass@${k} and Pass^${k} over ${k} planned attempts per task, a missing attempt counted as a non-pass); belief≠world: probes whose right answer (the partner's belief) is not the world, answered right (n)\n`,
    formatTextTable(
      [
        'subject',
        'scope',
        'tasks',
        'runs',
        'func Avg',
        'func 95% CI',
        `func Pass@${k}`,
        `func Pass^${k}`,
        'lit Avg',
        'lit 95% CI',
        `lit Pass@${k}`,
        `lit Pass^${k}`,
        'belief≠world',
      ],
      rows,
    ),
  ];
  const partial = metrics.flatMap((m) => m.scopes.filter((x) => x.functional.partial || x.literal.partial).map((x) => ({ m, x })));
  if (partial.length) {
    const planned = s.trialsPlanned;
    out.push(
      `\n* partial: some of the ${k} planned attempts per task are missing (the trial failed, or never ran); the starred Pass@${k} and Pass^${k} count them as non-passes, so they are lower bounds. Over the attempts made (Pass@: some attempt made succeeded; Pass^: every attempt made succeeded; over the tasks with an attempt made):${
        planned !== null && planned !== undefined && planned < k
          ? `\n  the run planned ${planned} trial(s) per task; --k ${k} counts ${k}`
          : ''
      }`,
      formatTextTable(
        [
          'subject',
          'scope',
          'attempts made',
          'failed',
          'never ran',
          'tasks',
          `func Pass@${k}`,
          `func Pass^${k}`,
          `lit Pass@${k}`,
          `lit Pass^${k}`,
        ],
        partial.map(({ m, x }) => {
          const a = x.functional.attempts;
          const made = x.functional.overAttemptsMade;
          const lit = x.literal.overAttemptsMade;
          return [
            m.subject,
            x.scope,
            `${a.made} of ${a.planned}`,
            String(a.failed),
            String(a.notRun),
            `${made.tasks} of ${a.tasks}`,
            pct(made.passAtK),
            pct(made.passHatK),
            pct(lit.passAtK),
            pct(lit.passHatK),
          ];
        }),
      ),
    );
  }
  out.push(
    `\nfailure modes (failed episodes)\n${formatTextTable(
      ['subject', 'failed', ...Object.keys(failures[0]?.counts ?? {})],
      failures.map((f) => [f.subject, String(f.failed), ...Object.values(f.counts).map(String)]),
    )}`,
  );
  for (const f of failures)
    for (const e of f.examples.slice(0, 2))
      out.push(
        `\n${f.subject} ${e.taskId} #${e.replicate} ${e.mode}: ${e.explanation}${e.turns.length ? `\n  ${e.turns.map((t) => `turn ${t.round} ${t.agent}: ${t.action ?? t.reply.slice(0, 80)} -> ${t.observation}`).join('\n  ')}` : ''}`,
      );
  return `${out.join('\n')}\n`;
}

/**
 * `embodied results`. `--json` prints `{ runId, k, trialsPlanned, metrics: [{ subject, k, scopes: [{ scope, tasks, runs,
 * functional: { avg, se, lower, upper, passAtK, passHatK, avgPlanned, partial, attempts: { k, tasks, planned, made, failed, notRun },
 * overAttemptsMade: { passAtK, passHatK, tasks, attempts } }, literal, probeAccuracy, gap }], actReportGapTasks }],
 * failures: [{ subject, failed, counts, examples }] }`.
 */
export function registerEmbodiedResults(cmd: Command): void {
  cmd
    .command('results')
    .description('functional and literal Avg, Pass@k and Pass^k per subject, category and depth; failure modes')
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--k <k>', 'k of Pass@k and Pass^k', intOption('--k', 1), 3)
    .option('--json', 'print JSON')
    .action(async (flags: { runId?: string; db: string; k: number; json?: boolean }) => {
      const store = await openStore(flags.db);
      try {
        const runId = await resolveRunId(store, flags.runId);
        const summary = await summarizeEpisodes(store, runId, flags.k);
        const { metrics, failures, trialsPlanned } = summary;
        if (metrics.length === 0) throw new ConfigError(`run ${runId} has no embodied episodes`);
        process.stdout.write(
          flags.json
            ? `${JSON.stringify({ runId, k: flags.k, trialsPlanned, metrics, failures }, null, 2)}\n`
            : formatEpisodeResults(runId, flags.k, summary),
        );
      } finally {
        await store.close();
      }
    });
}
