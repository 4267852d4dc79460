// The probes' summary as titled tables of cells, written once for the text output and the
// HTML report section.

import { formatPValue } from '../../../report/index.js';
import type { ProbeSummary } from '../analysis/index.js';

/** A titled table. */
export interface ProbeTable {
  title: string;
  note?: string;
  header: string[];
  rows: string[][];
}

const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(1)}%` : '-');
const num = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');

/** The tables of a run's probe summary. */
export function probeTables(s: ProbeSummary): ProbeTable[] {
  const out: ProbeTable[] = [];
  if (s.invariance) {
    const kinds = [...new Set(s.invariance.subjects.flatMap((x) => Object.keys(x.byKind)))].filter((k) => k !== 'original');
    out.push({
      title: `Invariance (run ${s.runId})`,
      note: "robust: right on every variant; flip rate: variants answered with another option than the original; consistency: share of an item's variants given its most common answer; spread: max - min accuracy over the question templates",
      header: ['subject', 'trials', 'original', ...kinds, 'robust', 'flip rate', 'consistency', 'template spread'],
      rows: s.invariance.subjects.map((x) => [
        x.subject,
        String(x.items),
        pct(x.originalAccuracy),
        ...kinds.map((k) => (x.byKind[k] ? pct(x.byKind[k].accuracy) : '-')),
        pct(x.robustAccuracy),
        pct(x.flipRate),
        pct(x.consistency),
        pct(x.paraphrase.spread),
      ]),
    });
    out.push({
      title: 'Positional bias over the option rotations',
      note: "positions chosen over each item's rotations (original and permutations) against a uniform spread: chi-square goodness of fit",
      header: ['subject', 'options', 'picks by position', 'chi-square', 'df', 'p'],
      rows: s.invariance.subjects.flatMap((x) =>
        x.positional.map((b) => [
          x.subject,
          String(b.options),
          b.counts.join(' / '),
          num(b.statistic),
          String(b.df),
          Number.isFinite(b.p) ? formatPValue(b.p) : '-',
        ]),
      ),
    });
  }
  if (s.sensitivity) {
    const names = [...new Set(s.sensitivity.flatMap((x) => x.alterations.map((a) => a.alteration)))];
    out.push({
      title: `Sensitivity: accuracy on the altered stories (run ${s.runId})`,
      note: 'each cell: accuracy on the alteration (flips: the answer changes; holds: it must not) and, after the slash, the share of items right on the original but wrong on the alteration (flagged as a shortcut)',
      header: ['subject', 'trials', 'original', ...names],
      rows: s.sensitivity.map((x) => [
        x.subject,
        String(x.items),
        pct(x.originalAccuracy),
        ...names.map((n) => {
          const a = x.alterations.find((y) => y.alteration === n);
          return a ? `${pct(a.accuracy)} / ${pct(a.shortcutShare)}` : '-';
        }),
      ]),
    });
    const orders = [...new Set(s.sensitivity.flatMap((x) => x.alterations.flatMap((a) => Object.keys(a.byOrder))))].sort();
    out.push({
      title: 'Sensitivity by belief order',
      header: ['subject', 'alteration', 'flips', ...orders.map((k) => `order ${k}`)],
      rows: s.sensitivity.flatMap((x) =>
        x.alterations.map((a) => [
          x.subject,
          a.alteration,
          `${a.flips}/${a.n}`,
          ...orders.map((k) => (a.byOrder[k] ? pct(a.byOrder[k].accuracy) : '-')),
        ]),
      ),
    });
  }
  if (s.shortcut) {
    const kinds = [...new Set(s.shortcut.suites.flatMap((x) => x.subjects.flatMap((y) => Object.keys(y.byKind))))];
    out.push({
      title: `Shortcut baselines (run ${s.runId})`,
      note: `${s.shortcut.test}; answerable: share of items flagged (in brackets: the share a uniform guesser would get flagged); longest answer: share of items whose answer is the unique longest option (chance in brackets)`,
      header: ['suite', 'subject', ...kinds, 'no story vs chance (p)', 'answerable without story', 'longest answer'],
      rows: s.shortcut.suites.flatMap((x) =>
        x.subjects.map((y) => [
          x.suite,
          y.subject,
          ...kinds.map((k) => (y.byKind[k] !== undefined ? pct(y.byKind[k]) : '-')),
          `${pct(y.noStory.accuracy)} vs ${pct(y.noStory.chance)} (${Number.isFinite(y.noStory.p) ? formatPValue(y.noStory.p) : '-'})`,
          `${y.flagged}/${x.items} (${pct(y.share)}; ${pct(y.chanceShare)})`,
          `${pct(x.longestAnswer)} (${pct(x.longestChance)})`,
        ]),
      ),
    });
  }
  if (s.beliefs) {
    out.push({
      title: `Explicit belief tracking (run ${s.runId})`,
      note: 'extraction: precision and recall of the listed (holder, object, container) propositions against the tracker; labelling: right truth status among those extracted right; the missed beliefs by holder are in --json (missedByHolder)',
      header: ['subject', 'order', 'listed', 'tracked', 'precision', 'recall', 'labelling', 'missed false / true beliefs', 'unreadable'],
      rows: s.beliefs.flatMap((x) =>
        x.byOrder.map((o) => [
          x.subject,
          String(o.order),
          String(o.listed),
          String(o.gold),
          pct(o.precision),
          pct(o.recall),
          pct(o.labelling),
          `${o.missedFalse} / ${o.missedTrue}`,
          `${x.unreadable}/${x.checkpoints}`,
        ]),
      ),
    });
  }
  return out;
}
