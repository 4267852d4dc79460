import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, openStore } from '../../index.js';
import { DEFAULT_DB } from '../options.js';
import { readJson, readText } from '../../core/index.js';
import {
  directorFromCounts,
  directorRunResults,
  directorRunSummary,
  jointAnalysis,
  parseReferenceGroups,
  trianglesFromProfiles,
  trianglesFromRun,
} from '../../analysis/index.js';
import { formatTextTable, renderJointScatter, svgToPng } from '../../report/index.js';

/**
 * `analyze director|triangles|vision` (the VLM paper): Director-Task shares, gap and recovery from
 * counts or a run; triangles profiles from a CSV or a judged run; and the joint analysis.
 */
export function registerAnalyzeVision(analyze: Command): void {
  const refsOf = (file?: string) =>
    parseReferenceGroups(
      readJson(file ?? new URL('../../../data/human-references.json', import.meta.url).pathname),
      file ?? 'data/human-references.json',
    );
  const pct = (x: number) => `${(x * 100).toFixed(1)}`;
  analyze
    .command('director')
    .description(
      'Director Task from per-model counts: shares on a, b, c.Q1, c.Q2, egocentric rate, explicit-implicit gap, recovery, panel means, nearest human group',
    )
    .option('--counts <file>', 'CSV with model,a,b,c_q1,c_q2,egocentric_b,scenes')
    .option('--run-id <id>', 'a stored run of the director suite (trials per scene combined by majority)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--references <file>', 'human reference groups (default: data/human-references.json)')
    .option('--json', 'print JSON')
    .action(async (f: { counts?: string; runId?: string; db: string; references?: string; json?: boolean }) => {
      if (!!f.counts === !!f.runId) throw new ConfigError('give exactly one of --counts FILE and --run-id ID');
      const refs = refsOf(f.references);
      let d: ReturnType<typeof directorFromCounts>;
      // Control arms of a run, reported beside the canonical headline (never averaged into it).
      let controls: Array<{ arm: string; models: typeof d.models; panel: typeof d.panel }> = [];
      if (f.counts) d = directorFromCounts(readText(f.counts), f.counts);
      else {
        const store = await openStore(f.db);
        try {
          const summary = await directorRunSummary(store, f.runId!);
          if (summary.arms.length === 0) throw new ConfigError(`run ${f.runId} has no Director-Task trials`);
          const headline = summary.headline ?? summary.arms[0]!;
          d = { models: headline.models, panel: headline.panel };
          controls = summary.arms.filter((a) => a !== headline).map((a) => ({ arm: a.arm, models: a.models, panel: a.panel }));
          if (!summary.headline)
            process.stderr.write(`warning: run ${f.runId} has no canonical arm; the headline is the ${headline.arm} arm\n`);
        } finally {
          await store.close();
        }
      }
      const nearest = (gap: number) => refs.director.reduce((m, g) => (Math.abs(gap - g.gap) < Math.abs(gap - m.gap) ? g : m)).group;
      if (f.json) {
        process.stdout.write(
          `${JSON.stringify({ ...d, arm: f.counts ? undefined : 'canonical', nearest: Object.fromEntries(d.models.map((m) => [m.model, nearest(m.gap)])), controls }, null, 2)}\n`,
        );
        return;
      }
      const row = (name: string, m: Omit<(typeof d.models)[number], 'model' | 'scenes'>) => [
        name,
        pct(m.a),
        pct(m.b),
        pct(m.cQ1),
        pct(m.cQ2),
        pct(m.egocentric),
        pct(m.gap),
        pct(m.recovery),
        nearest(m.gap),
      ];
      const header = ['model', 'a %', 'b %', 'c.Q1 %', 'c.Q2 %', 'egocentric %', 'gap (pts)', 'recovery (pts)', 'nearest group'];
      if (!f.counts) process.stdout.write('canonical arm (the headline)\n');
      process.stdout.write(`${formatTextTable(header, [...d.models.map((m) => row(m.model, m)), row('panel mean', d.panel)])}\n`);
      for (const c of controls) {
        process.stdout.write(
          `\n${c.arm} arm (control, not in the panel mean above)\n${formatTextTable(header, [...c.models.map((m) => row(m.model, m)), row('panel mean', c.panel)])}\n`,
        );
      }
    });
  analyze
    .command('triangles')
    .description('animated triangles from judged profiles: ToM-condition (Intent, Approp) per subject and its distance to each human group')
    .option('--profiles <file>', 'CSV with subject,condition,intent,approp')
    .option('--run-id <id>', 'a run of the triangles suite scored with rubrics/castelli-triangles.yaml (mindscope score)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--references <file>', 'human reference groups (default: data/human-references.json)')
    .option('--json', 'print JSON')
    .action(async (f: { profiles?: string; runId?: string; db: string; references?: string; json?: boolean }) => {
      if (!!f.profiles === !!f.runId) throw new ConfigError('give exactly one of --profiles FILE and --run-id ID');
      const refs = refsOf(f.references);
      let t: ReturnType<typeof trianglesFromProfiles>;
      if (f.profiles) t = trianglesFromProfiles(readText(f.profiles), refs, f.profiles);
      else {
        const store = await openStore(f.db);
        try {
          t = (await trianglesFromRun(store, f.runId!, refs)).profiles;
        } finally {
          await store.close();
        }
        if (t.length === 0)
          throw new ConfigError(
            `run ${f.runId} has no judged ToM-condition descriptions (score it with rubrics/castelli-triangles.yaml first)`,
          );
      }
      if (f.json) {
        process.stdout.write(`${JSON.stringify(t, null, 2)}\n`);
        return;
      }
      process.stdout.write(
        `${formatTextTable(
          ['subject', 'intent', 'approp', ...refs.triangles.map((g) => `to ${g.group}`), 'nearest'],
          t.map((x) => [x.subject, x.intent.toFixed(2), x.approp.toFixed(2), ...x.distances.map((d) => d.distance.toFixed(2)), x.nearest]),
        )}\n`,
      );
    });
  analyze
    .command('vision')
    .description('joint Director / triangles analysis: nearest group per task, disagreement, Spearman, scatter plot')
    .option('--counts <file>', 'Director counts CSV')
    .option('--director-run <id>', 'or: a stored run of the director suite (canonical arm)')
    .option('--profiles <file>', 'triangles profiles CSV')
    .option('--triangles-run <id>', 'or: a stored, Castelli-scored run of the triangles suite')
    .option('--db <path>', 'store, a SQLite file or postgres:// URL (with the run options)', DEFAULT_DB)
    .option('--references <file>', 'human reference groups')
    .option('--report <dir>', 'write the scatter plot as DIR/vision-joint.svg and .png (the PNG needs ffmpeg)')
    .option('--json', 'print JSON')
    .action(
      async (f: {
        counts?: string;
        directorRun?: string;
        profiles?: string;
        trianglesRun?: string;
        db: string;
        references?: string;
        report?: string;
        json?: boolean;
      }) => {
        if (!!f.counts === !!f.directorRun) throw new ConfigError('give exactly one of --counts FILE and --director-run ID');
        if (!!f.profiles === !!f.trianglesRun) throw new ConfigError('give exactly one of --profiles FILE and --triangles-run ID');
        const refs = refsOf(f.references);
        let models: ReturnType<typeof directorFromCounts>['models'];
        let t: ReturnType<typeof trianglesFromProfiles>;
        const store = f.directorRun || f.trianglesRun ? await openStore(f.db) : undefined;
        try {
          models = f.counts
            ? directorFromCounts(readText(f.counts), f.counts).models
            : (await directorRunResults(store!, f.directorRun!)).filter((r) => r.arm === 'canonical');
          t = f.profiles
            ? trianglesFromProfiles(readText(f.profiles), refs, f.profiles)
            : (await trianglesFromRun(store!, f.trianglesRun!, refs)).profiles;
        } finally {
          await store?.close();
        }
        const joint = jointAnalysis(models, t, refs);
        if (f.report) {
          mkdirSync(f.report, { recursive: true });
          const svg = await renderJointScatter(joint.rows, refs);
          writeFileSync(join(f.report, 'vision-joint.svg'), svg);
          writeFileSync(join(f.report, 'vision-joint.png'), svgToPng(svg));
        }
        if (f.json) process.stdout.write(`${JSON.stringify(joint, null, 2)}\n`);
        else
          process.stdout.write(
            `${formatTextTable(
              ['subject', 'Director gap', 'Director nearest', 'triangles to TD', 'triangles nearest', 'disagree'],
              joint.rows.map((r) => [
                r.subject,
                r.directorGap.toFixed(3),
                r.directorNearest,
                r.trianglesDistanceToTd.toFixed(2),
                r.trianglesNearest,
                r.disagree ? 'yes' : 'no',
              ]),
            )}\nSpearman (gap, distance to TD): ${joint.spearman === null ? '-' : joint.spearman.toFixed(3)}\n`,
          );
      },
    );
}
