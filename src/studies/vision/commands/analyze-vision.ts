import type { Command } from 'commander';
import { DEFAULT_DB } from '../../../cli/toolkit.js';
import { writeFileSync } from 'node:fs';
import { ConfigError, loadHumanReferences, openStore } from '../../../index.js';
import { readText } from '../../../core/index.js';
import {
  directorBarsSpec,
  profileScatterSpec,
  renderJointScatter,
  directorByFactor,
  directorFloor,
  directorFromCounts,
  directorRunSummary,
  FLOOR_ARMS,
  FLOOR_CRITERION,
  floorTableCells,
  directorSceneOutcomes,
  jointAnalysis,
  nearestDirectorGroup,
  trianglesConditionsFromProfiles,
  trianglesFromRun,
  type DirectorFactorRow,
  type DirectorModel,
  type DirectorShares,
  type FloorRow,
  type TriangleProfile,
} from '../index.js';
import { formatTextTable, renderSvg } from '../../../report/index.js';
import { directorFigure1 } from '../report/director-figure.js';
import { directorSceneOf } from '../report/director-scene-file.js';
import { registerAnalyzeTriangles } from './analyze-triangles.js';
import { readLabs, writeFigures } from './figure-files.js';

const pct = (x: number | undefined) => (x === undefined ? '-' : (x * 100).toFixed(1));

/** Letter-level and colour-level tables of one arm, with both egocentric rates and the nearest groups. */
function directorTables(
  title: string,
  models: DirectorModel[],
  panel: DirectorShares,
  nearest: (gap: number, set: 'adult' | 'wide') => string,
): string {
  const letterHead = [
    'model',
    'scenes',
    'a %',
    'b %',
    'c.Q1 %',
    'c.Q2 %',
    'ego b %',
    'ego c.Q2 %',
    'gap (pts)',
    'recovery (pts)',
    'nearest (adult)',
    'nearest (wide)',
  ];
  const letter = (name: string, scenes: string, m: DirectorShares) => [
    name,
    scenes,
    pct(m.a),
    pct(m.b),
    pct(m.cQ1),
    pct(m.cQ2),
    pct(m.egocentric),
    pct(m.egocentricCQ2),
    pct(m.gap),
    pct(m.recovery),
    nearest(m.gap, 'adult'),
    nearest(m.gap, 'wide'),
  ];
  let out = `${title}, letter level\n${formatTextTable(letterHead, [...models.map((m) => letter(m.model, String(m.scenes), m)), letter('panel mean', '', panel)])}\n`;
  const colored = models.filter((m) => m.color);
  if (colored.length) {
    const colorHead = ['model', 'scenes', 'a %', 'b %', 'c.Q1 %', 'c.Q2 %', 'gap (pts)'];
    const color = (name: string, c: NonNullable<DirectorShares['color']>) => [
      name,
      String(c.scenes),
      pct(c.a),
      pct(c.b),
      pct(c.cQ1),
      pct(c.cQ2),
      pct(c.gap),
    ];
    out += `${title}, colour level (the colour words named)\n${formatTextTable(colorHead, [...colored.map((m) => color(m.model, m.color!)), ...(panel.color ? [color('panel mean', panel.color)] : [])])}\n`;
  }
  return out;
}

function factorTable(rows: DirectorFactorRow[]): string {
  return formatTextTable(
    ['subject', 'arm', 'factor', 'level', 'scenes', 'b letter %', 'b colour %', 'ego b %', 'ego c.Q2 %'],
    rows.map((r) => [
      r.subject,
      r.arm,
      r.factor,
      r.level,
      String(r.scenes),
      pct(r.bLetter),
      pct(r.bColor ?? undefined),
      pct(r.egocentricB),
      pct(r.egocentricCQ2 ?? undefined),
    ]),
  );
}

interface DirectorFlags {
  counts?: string;
  runId?: string;
  db: string;
  references?: string;
  byFactor?: boolean;
  figure1?: string;
  seed: string;
  out?: string;
  json?: boolean;
}

/** `analyze director --figure1 SCENE`: the schematic of one scene as SVG, the picture the model is shown beside it. */
function writeFigure1(ref: string, f: DirectorFlags): void {
  const seed = Number(f.seed);
  if (!Number.isInteger(seed) || seed < 0) throw new ConfigError(`--seed must be a whole number >= 0, not "${f.seed}"`);
  const { scene, picture } = directorSceneOf(ref, seed);
  const out = f.out ?? `director-figure1-${scene.id.replace(/[^\w.-]+/g, '_')}.svg`;
  writeFileSync(out, directorFigure1(scene, { picture }));
  process.stdout.write(f.json ? `${JSON.stringify({ figure: out, scene })}\n` : `wrote ${out}\n`);
}

/** The floor control per subject: canonical (b) beside control (b) on each control arm, and the verdict. */
function floorTable(rows: FloorRow[]): string {
  const { header, cells } = floorTableCells(rows, '-');
  return `floor control (Appendix C): (b) right at letter level >= ${FLOOR_CRITERION.right}/${FLOOR_CRITERION.of} on each control arm\n${formatTextTable(header, cells)}\n`;
}

/**
 * `analyze director|triangles|vision` (the VLM paper): Director-Task shares at letter and colour
 * level with egocentric errors on (b) and c.Q2 from counts or a run; triangles profiles per
 * condition and arm; and the joint analysis with the paper's figures.
 */
export function registerAnalyzeVision(analyze: Command): void {
  analyze
    .command('director')
    .description(
      'Director Task: shares on a, b, c.Q1, c.Q2 at letter and colour level, egocentric rates on (b) and c.Q2, explicit-implicit gap, recovery, panel means, nearest human group (adult set and wide set), the floor control on the control arms; --figure1 SCENE draws the Figure 1 schematic',
    )
    .option('--counts <file>', 'CSV with model,a,b,c_q1,c_q2,egocentric_b,scenes (optionally egocentric_c_q2)')
    .option('--run-id <id>', 'a stored run of the director suite (trials per scene combined by majority)')
    .option('--db <path>', 'store file (a SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--references <file>', 'human reference groups (default: data/human-references.json)')
    .option('--by-factor', 'also break the run down by counterbalancing factor (palette, polarity, target slot, trap slot)')
    .option(
      '--figure1 <scene>',
      "draw the paper's Figure 1 schematic of a scene as SVG: a scene id of the director suite (canonical-01, same-side-03, ...) or a JSON file of a scene",
    )
    .option('--seed <n>', '--figure1: the seed the scene ids are generated with (as the run was)', '0')
    .option('--out <file>', '--figure1: the SVG file to write (default director-figure1-SCENE.svg)')
    .option('--json', 'print JSON')
    .action(async (f: DirectorFlags) => {
      if (f.figure1) return writeFigure1(f.figure1, f);
      if (!!f.counts === !!f.runId) throw new ConfigError('give exactly one of --counts FILE and --run-id ID (or --figure1 SCENE)');
      const refs = loadHumanReferences(f.references);
      let d: { models: DirectorModel[]; panel: DirectorShares };
      // Control arms of a run, reported beside the canonical headline (never averaged into it).
      let controls: Array<{ arm: string; models: DirectorModel[]; panel: DirectorShares }> = [];
      let byFactor: DirectorFactorRow[] = [];
      let floor: FloorRow[] = [];
      let headlineArm = 'canonical';
      if (f.counts) d = directorFromCounts(readText(f.counts), f.counts);
      else {
        const store = await openStore(f.db);
        try {
          const summary = await directorRunSummary(store, f.runId!);
          if (summary.arms.length === 0) throw new ConfigError(`run ${f.runId} has no Director-Task trials`);
          const headline = summary.headline ?? summary.arms[0]!;
          headlineArm = headline.arm;
          d = { models: headline.models, panel: headline.panel };
          controls = summary.arms.filter((a) => a !== headline).map((a) => ({ arm: a.arm, models: a.models, panel: a.panel }));
          if (!summary.headline)
            process.stderr.write(`warning: run ${f.runId} has no canonical arm; the headline is the ${headline.arm} arm\n`);
          const outcomes = await directorSceneOutcomes(store, f.runId!);
          byFactor = directorByFactor(outcomes);
          floor = directorFloor(outcomes);
        } finally {
          await store.close();
        }
      }
      const nearest = (gap: number, set: 'adult' | 'wide') => nearestDirectorGroup(gap, refs, set);
      if (f.json) {
        const near = (ms: DirectorModel[]) =>
          Object.fromEntries(ms.map((m) => [m.model, { adult: nearest(m.gap, 'adult'), wide: nearest(m.gap, 'wide') }]));
        process.stdout.write(
          `${JSON.stringify(
            {
              ...d,
              arm: f.counts ? undefined : headlineArm,
              nearest: near(d.models),
              panelNearest: { adult: nearest(d.panel.gap, 'adult'), wide: nearest(d.panel.gap, 'wide') },
              controls,
              byFactor,
              floor: f.counts ? undefined : { criterion: FLOOR_CRITERION, arms: FLOOR_ARMS, subjects: floor },
            },
            null,
            2,
          )}\n`,
        );
        return;
      }
      process.stdout.write(directorTables(f.counts ? 'Director Task' : `${headlineArm} arm (the headline)`, d.models, d.panel, nearest));
      for (const c of controls)
        process.stdout.write(`\n${directorTables(`${c.arm} arm (control, not in the panel mean above)`, c.models, c.panel, nearest)}`);
      if (floor.length) process.stdout.write(`\n${floorTable(floor)}`);
      if (f.byFactor && byFactor.length) process.stdout.write(`\nby counterbalancing factor\n${factorTable(byFactor)}\n`);
      if (refs.egocentricReach.length)
        process.stdout.write(
          `\negocentric reach brackets (not gaps): ${refs.egocentricReach.map((g) => `${g.group} ${pct(g.rate)}%`).join('; ')}\n`,
        );
    });
  registerAnalyzeTriangles(analyze);
  analyze
    .command('vision')
    .description(
      "joint Director / triangles analysis: nearest group per task (adult and wide sets), disagreement, Spearman, and the paper's figures",
    )
    .option('--counts <file>', 'Director counts CSV')
    .option('--director-run <id>', 'or: a stored run of the director suite (canonical arm)')
    .option('--profiles <file>', 'triangles profiles CSV (subject,condition,intent,approp)')
    .option('--triangles-run <id>', 'or: a stored, Castelli-scored run of the triangles suite')
    .option('--db <path>', 'store file (with the run options) (a SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--references <file>', 'human reference groups')
    .option(
      '--report <dir>',
      'write the figures as SVG and PNG into DIR (vision-joint, vision-director, vision-profiles; the PNGs need ffmpeg)',
    )
    .option('--labs <file>', 'JSON map of model spec (or provider) -> lab, for colouring by lab (default: from the model names)')
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
        labs?: string;
        json?: boolean;
      }) => {
        if (!!f.counts === !!f.directorRun) throw new ConfigError('give exactly one of --counts FILE and --director-run ID');
        if (!!f.profiles === !!f.trianglesRun) throw new ConfigError('give exactly one of --profiles FILE and --triangles-run ID');
        const refs = loadHumanReferences(f.references);
        let models: DirectorModel[];
        let t: TriangleProfile[];
        const store = f.directorRun || f.trianglesRun ? await openStore(f.db) : undefined;
        try {
          models = f.counts
            ? directorFromCounts(readText(f.counts), f.counts).models
            : ((await directorRunSummary(store!, f.directorRun!)).headline?.models ?? []);
          if (f.profiles) t = trianglesConditionsFromProfiles(readText(f.profiles), refs, f.profiles);
          else {
            const run = await trianglesFromRun(store!, f.trianglesRun!, refs);
            t = run.byCondition.filter((p) => p.arm === 'grid' && p.clipSet === run.headlineClipSet);
          }
        } finally {
          store?.close();
        }
        const joint = jointAnalysis(models, t, refs);
        if (f.report) {
          const charts: Array<[string, string]> = [['vision-joint', await renderJointScatter(joint.rows, refs)]];
          if (models.length) charts.push(['vision-director', await renderSvg(directorBarsSpec(models))]);
          if (t.length)
            charts.push(['vision-profiles', await renderSvg(profileScatterSpec(t, refs, undefined, { labs: readLabs(f.labs) }))]);
          writeFigures(f.report, charts);
        }
        if (f.json) process.stdout.write(`${JSON.stringify(joint, null, 2)}\n`);
        else
          process.stdout.write(
            `${formatTextTable(
              ['subject', 'Director gap', 'nearest (adult)', 'nearest (wide)', 'triangles to TD', 'triangles nearest', 'disagree'],
              joint.rows.map((r) => [
                r.subject,
                r.directorGap.toFixed(3),
                r.directorNearest,
                r.directorNearestWide,
                r.trianglesDistanceToTd.toFixed(2),
                r.trianglesNearest ?? '-',
                r.disagree ? 'yes' : 'no',
              ]),
            )}\ndisagreements (adult groups): ${joint.disagreements}/${joint.rows.length}\nSpearman (gap, distance to TD): ${joint.spearman === null || Number.isNaN(joint.spearman) ? '-' : joint.spearman.toFixed(3)}\n`,
          );
      },
    );
}
