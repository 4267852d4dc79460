import type { Command } from 'commander';
import { DEFAULT_DB } from '../../../cli/toolkit.js';
import { ConfigError, compareTriangleScorers, loadHumanReferences, openStore } from '../../../index.js';
import { readText } from '../../../core/index.js';
import {
  ARM_TITLES,
  CANONICAL_TRIANGLES_SCORER,
  strictIntentRank,
  trianglesConditionsFromProfiles,
  trianglesFromRun,
  type ConditionProfile,
  type TriangleProfile,
  type TrianglesArmSummary,
} from '../index.js';
import { formatTextTable, formatUsd, renderSvg } from '../../../report/index.js';
import { profileScatterSpec } from '../report/profile-figure.js';
import { readLabs, writeFigures } from './figure-files.js';
import { loadPriceTable } from '../../../runner/index.js';

const n2 = (x: number | null | undefined) => (x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(2));

function profileRows(ps: TriangleProfile[], groups: string[]): string[][] {
  return ps.map((p) => [
    p.subject,
    p.condition,
    n2(p.intent),
    n2(p.approp),
    ...groups.map((g) => n2(p.distances.find((d) => d.group === g)?.distance)),
    p.nearest ?? '-',
  ]);
}

function armRows(arms: TrianglesArmSummary[]): string[][] {
  return arms.map((a) => {
    const conds = Object.keys(a.panelMedianIntent);
    return [
      `${a.clipSet === 'user' ? 'your clips: ' : ''}${ARM_TITLES[a.arm] ?? a.arm}`,
      String(a.subjects.length),
      conds.map((c) => a.panelMedianIntent[c]!.toFixed(1)).join(' / '),
      `${a.strictRankCount}/${a.subjects.length}`,
      `(${n2(a.panelMean.tom?.intent)}, ${n2(a.panelMean.tom?.approp)})`,
      (a.panelMean.tom?.distances ?? []).map((d) => `${d.group} ${n2(d.distance)}`).join(', ') || '-',
      conds.map((c) => `${c} ${a.panelMean[c]!.nearest ?? '-'}`).join(', '),
    ];
  });
}

const ARM_HEAD = [
  'arm',
  'subjects',
  'median Intent ToM/GD/Random',
  'strict rank',
  'panel ToM (Intent, Approp)',
  'ToM distances',
  'nearest per condition',
];

/** `analyze triangles`: per-condition profiles and distances, per-arm panel figures and strict ranks, frame similarity, and the judge comparison. */
export function registerAnalyzeTriangles(analyze: Command): void {
  analyze
    .command('triangles')
    .description(
      'animated triangles: (Intent, Approp) per subject, condition and arm with distances to the human groups, strict Intent rank ToM > GD > Random, controls per arm, similarity to native video; --scorers compares rubrics (informed vs anchor-blinded) with judge cost per cell',
    )
    .option('--profiles <file>', 'CSV with subject,condition,intent,approp')
    .option('--run-id <id>', 'a run of the triangles suites scored with rubrics/castelli-triangles.yaml (mindscope score)')
    .option('--scorer <name>', 'the scorer to read', CANONICAL_TRIANGLES_SCORER)
    .option('--scorers <a,b>', 'compare scorers on the run, e.g. judge:castelli-triangles,judge:castelli-triangles-informed')
    .option('--prices <file>', 'judge prices (JSON or YAML, US$ per million tokens) over the bundled price list, for cost per cell')
    .option('--db <path>', 'store file (a SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--references <file>', 'human reference groups (default: data/human-references.json)')
    .option(
      '--report <dir>',
      'write the per-condition profile figure (canonical arm of a run) as vision-profiles.svg and .png into DIR (the PNG needs ffmpeg)',
    )
    .option('--labs <file>', 'JSON map of model spec (or provider) -> lab, for colouring the figure by lab (default: from the model names)')
    .option('--json', 'print JSON')
    .action(
      async (f: {
        report?: string;
        labs?: string;
        profiles?: string;
        runId?: string;
        scorer: string;
        scorers?: string;
        prices?: string;
        db: string;
        references?: string;
        json?: boolean;
      }) => {
        if (!!f.profiles === !!f.runId) throw new ConfigError('give exactly one of --profiles FILE and --run-id ID');
        if (f.scorers && !f.runId) throw new ConfigError('--scorers compares scorers on a stored run: give --run-id');
        const refs = loadHumanReferences(f.references);
        const groups = [...new Set(refs.triangles.map((g) => g.group))];
        const out = (s: string): void => {
          process.stdout.write(s);
        };
        const labs = readLabs(f.labs);
        const figure = async (ps: TriangleProfile[]) => {
          if (f.report && ps.length)
            writeFigures(f.report, [['vision-profiles', await renderSvg(profileScatterSpec(ps, refs, undefined, { labs }))]]);
        };
        if (f.profiles) {
          const ps = trianglesConditionsFromProfiles(readText(f.profiles), refs, f.profiles);
          await figure(ps);
          const subjects = [...new Set(ps.map((p) => p.subject))];
          const ranks = Object.fromEntries(
            subjects.map((s) => [s, strictIntentRank(ps.filter((p) => p.subject === s) as ConditionProfile[])]),
          );
          if (f.json) return out(`${JSON.stringify({ profiles: ps, strictRank: ranks }, null, 2)}\n`);
          out(
            `${formatTextTable(['subject', 'condition', 'intent', 'approp', ...groups.map((g) => `to ${g}`), 'nearest'], profileRows(ps, groups))}\n`,
          );
          out(
            `strict Intent rank ToM > GD > Random: ${subjects.map((s) => `${s} ${ranks[s] === null ? '-' : ranks[s] ? 'yes' : 'no'}`).join(', ')}\n`,
          );
          return;
        }
        const store = await openStore(f.db);
        try {
          if (f.scorers) {
            const scorers = f.scorers
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
            if (scorers.length < 2) throw new ConfigError('--scorers needs two or more scorers, separated by commas');
            const cmp = await compareTriangleScorers(store, f.runId!, scorers, {
              refs,
              prices: f.prices ? loadPriceTable(f.prices) : undefined,
            });
            for (const s of cmp.scorers)
              if (s.arms.length === 0)
                throw new ConfigError(`run ${f.runId} has no triangles cells scored by ${s.scorer} (mindscope score --rubric ...)`);
            if (f.json) return out(`${JSON.stringify(cmp, null, 2)}\n`);
            for (const r of cmp.rows) {
              out(`\n${r.clipSet === 'user' ? 'your clips: ' : ''}${ARM_TITLES[r.arm] ?? r.arm}\n`);
              out(
                `${formatTextTable(
                  ['scorer', ...ARM_HEAD.slice(1)],
                  r.by.map((b) =>
                    b.summary ? [b.scorer, ...armRows([b.summary])[0]!.slice(1)] : [b.scorer, '-', '-', '-', '-', '-', '-'],
                  ),
                )}\n`,
              );
              out(
                `same nearest group in every condition: ${r.sameNearest ? 'yes' : 'no'}; same median Intent: ${r.sameMedians ? 'yes' : 'no'}\n`,
              );
            }
            out(
              `\njudge cost per cell (one response scored by the whole panel)\n${formatTextTable(
                ['scorer', 'judges', 'cells', 'measured / cell', 'estimated / cell (3,000 in + 1,000 out a call)', 'unpriced'],
                cmp.scorers.map((s) => [
                  s.scorer,
                  s.cost.judges.join(' + '),
                  `${s.cost.cellsMeasured}/${s.cost.cells}`,
                  s.cost.measuredPerCell === null ? '-' : `$${s.cost.measuredPerCell.toFixed(6)}`,
                  s.cost.estimatedPerCell === null ? '-' : formatUsd(s.cost.estimatedPerCell),
                  s.cost.unpriced.join(', ') || '-',
                ]),
              )}\n`,
            );
            return;
          }
          const t = await trianglesFromRun(store, f.runId!, refs, f.scorer);
          if (t.cells.length === 0)
            throw new ConfigError(
              `run ${f.runId} has no descriptions judged by ${f.scorer} (score it with rubrics/castelli-triangles.yaml first)`,
            );
          await figure(t.byCondition.filter((p) => p.arm === 'grid' && p.clipSet === t.headlineClipSet));
          if (f.json) {
            const { cells: _cells, scores: _scores, ...rest } = t;
            return out(`${JSON.stringify(rest, null, 2)}\n`);
          }
          out(
            `panel per arm (scorer ${t.scorer}; judge median per clip, mean over clips)\n${formatTextTable(ARM_HEAD, armRows(t.arms))}\n`,
          );
          for (const a of t.arms) {
            const ps = t.byCondition.filter((p) => p.clipSet === a.clipSet && p.arm === a.arm);
            out(`\n${a.clipSet === 'user' ? 'your clips: ' : ''}${ARM_TITLES[a.arm] ?? a.arm}\n`);
            out(
              `${formatTextTable(['subject', 'condition', 'intent', 'approp', ...groups.map((g) => `to ${g}`), 'nearest'], profileRows(ps, groups))}\n`,
            );
            out(
              `strict Intent rank ToM > GD > Random: ${a.subjects.map((s) => `${s} ${a.strictRank[s] === null ? '-' : a.strictRank[s] ? 'yes' : 'no'}`).join(', ')}\n`,
            );
          }
          if (t.similarity.length)
            out(
              `\nsimilarity to native video (%) and prompt tokens per cell\n${formatTextTable(
                ['subject', 'arm', 'similarity', ...['tom', 'goal-directed', 'random'], 'prompt tokens', 'Pareto front'],
                t.similarity.map((r) => [
                  r.subject,
                  ARM_TITLES[r.arm] ?? r.arm,
                  r.similarity.toFixed(1),
                  ...['tom', 'goal-directed', 'random'].map(
                    (c) => r.byCondition.find((x) => x.condition === c)?.similarity.toFixed(1) ?? '-',
                  ),
                  r.promptTokens === null ? '-' : r.promptTokens.toFixed(0),
                  r.pareto === null ? '-' : r.pareto ? 'yes' : 'no',
                ]),
              )}\n`,
            );
        } finally {
          await store.close();
        }
      },
    );
}
