// The VLM paper's summary-level analyses. Director Task: per model, the shares right on (a)
// which blocks the director sees, (b) which block to move (the trap), c.Q1 and c.Q2 (the
// two-step gate), the egocentric rates on (b) and c.Q2, the explicit-implicit gap P(a) - P(b)
// and the recovery P(c.Q2) - P(b); panel means are means over models. Animated triangles: per
// subject and condition, the (mean Intent, mean Approp) profile and its Euclidean distance to
// each human reference group of that condition. Joint: the nearest group on each task (the
// two-adult set, as the paper's Table 8, and the wide set with the age cohorts), whether they
// disagree, and Spearman between the Director gap and the triangles distance to TD adults.

import { decimalNumber, InputError, parseCsv } from '../../../core/index.js';
import { spearman } from '../../../stats/index.js';
import { nearestDirectorGroup, TRIANGLE_CONDITIONS, trianglesGroups, type ReferenceGroups } from './human-references.js';

export * from './human-references.js';

function table(
  text: string,
  file: string,
  columns: string[],
): Array<{ line: number; get: (c: string) => string; has: (c: string) => boolean }> {
  const rows = parseCsv(text, file);
  if (rows.length < 2) throw new InputError(`expected a header (${columns.join(',')}) and rows`, file);
  const header = rows[0]!.fields.map((h) => h.trim().toLowerCase());
  for (const c of columns) if (!header.includes(c)) throw new InputError(`no "${c}" column (expected ${columns.join(',')})`, file, 1);
  return rows.slice(1).map((r) => {
    if (r.fields.length !== header.length)
      throw new InputError(`row has ${r.fields.length} fields, the header has ${header.length}`, file, r.line);
    return { line: r.line, get: (c: string) => r.fields[header.indexOf(c)]!.trim(), has: (c: string) => header.includes(c) };
  });
}

/** Shares of one model (or a panel) on the Director Task. */
export interface DirectorShares {
  a: number;
  b: number;
  cQ1: number;
  cQ2: number;
  /** Egocentric rate on (b). */
  egocentric: number;
  /** Egocentric rate on c.Q2, where known. */
  egocentricCQ2?: number;
  gap: number;
  recovery: number;
  /** Colour level, apart from the letter level above, where known. */
  color?: { scenes: number; a: number; b: number; cQ1: number; cQ2: number; gap: number };
}

export interface DirectorModel extends DirectorShares {
  model: string;
  scenes: number;
}

/** Counts CSV: model,a,b,c_q1,c_q2,egocentric_b,scenes (and optionally egocentric_c_q2). */
export function directorFromCounts(text: string, file = '<counts>'): { models: DirectorModel[]; panel: DirectorShares } {
  const cols = ['model', 'a', 'b', 'c_q1', 'c_q2', 'egocentric_b', 'scenes'];
  const models = table(text, file, cols).map(({ line, get, has }) => {
    const n = (c: string) => {
      const v = decimalNumber(get(c));
      if (get(c) === '' || !Number.isInteger(v) || v < 0) throw new InputError(`${c} must be a whole number, not "${get(c)}"`, file, line);
      return v;
    };
    const scenes = n('scenes');
    if (scenes === 0) throw new InputError('scenes must be positive', file, line);
    const counted = [...cols.slice(1, 6), ...(has('egocentric_c_q2') ? ['egocentric_c_q2'] : [])];
    for (const c of counted) if (n(c) > scenes) throw new InputError(`${c} (${n(c)}) exceeds scenes (${scenes})`, file, line);
    const share = (c: string) => n(c) / scenes;
    const a = share('a');
    const b = share('b');
    const cQ2 = share('c_q2');
    const m: DirectorModel = {
      model: get('model'),
      scenes,
      a,
      b,
      cQ1: share('c_q1'),
      cQ2,
      egocentric: share('egocentric_b'),
      gap: a - b,
      recovery: cQ2 - b,
    };
    if (has('egocentric_c_q2')) m.egocentricCQ2 = share('egocentric_c_q2');
    return m;
  });
  const mean = (f: (m: DirectorModel) => number) => models.reduce((s, m) => s + f(m), 0) / models.length;
  const panel: DirectorShares = {
    a: mean((m) => m.a),
    b: mean((m) => m.b),
    cQ1: mean((m) => m.cQ1),
    cQ2: mean((m) => m.cQ2),
    egocentric: mean((m) => m.egocentric),
    gap: mean((m) => m.gap),
    recovery: mean((m) => m.recovery),
  };
  if (models.every((m) => m.egocentricCQ2 !== undefined)) panel.egocentricCQ2 = mean((m) => m.egocentricCQ2!);
  return { models, panel };
}

export interface TriangleProfile {
  subject: string;
  /** tom, goal-directed or random. */
  condition: string;
  intent: number;
  approp: number;
  /** Distances to the human groups of this condition (none when the references have none). */
  distances: Array<{ group: string; distance: number }>;
  nearest: string | null;
}

/** The conditions' short names (the paper's tables say GD). */
const CONDITION_ALIASES: Record<string, string> = { gd: 'goal-directed', 'goal directed': 'goal-directed', rd: 'random' };

/** Profiles CSV: subject,condition,intent,approp (one row per subject and condition, or per clip): every condition's profile. */
export function trianglesConditionsFromProfiles(text: string, refs: ReferenceGroups, file = '<profiles>'): TriangleProfile[] {
  const rows = table(text, file, ['subject', 'condition', 'intent', 'approp']).map(({ line, get }) => {
    const intent = decimalNumber(get('intent'));
    const approp = decimalNumber(get('approp'));
    if (!(intent >= 0 && intent <= 5)) throw new InputError(`intent must lie in [0, 5], not "${get('intent')}"`, file, line);
    if (!(approp >= 0 && approp <= 3)) throw new InputError(`approp must lie in [0, 3], not "${get('approp')}"`, file, line);
    // GD and ToM as the paper abbreviates them; an unknown condition would sit in the tables with
    // no human group to compare: refused.
    const given = get('condition').toLowerCase();
    const condition = CONDITION_ALIASES[given] ?? given;
    if (!(TRIANGLE_CONDITIONS as readonly string[]).includes(condition))
      throw new InputError(`condition "${get('condition')}" is not one of ${TRIANGLE_CONDITIONS.join(', ')}`, file, line);
    return { subject: get('subject'), condition, intent, approp };
  });
  const keys = [...new Set(rows.map((r) => `${r.subject}\u0000${r.condition}`))];
  return keys.map((k) => {
    const [subject, condition] = k.split('\u0000') as [string, string];
    const xs = rows.filter((r) => r.subject === subject && r.condition === condition);
    const intent = xs.reduce((s, r) => s + r.intent, 0) / xs.length;
    const approp = xs.reduce((s, r) => s + r.approp, 0) / xs.length;
    return profileOf(subject, intent, approp, refs, condition);
  });
}

/** Profiles CSV: the ToM-condition profile of each subject (the paper's canonical metric). */
export function trianglesFromProfiles(text: string, refs: ReferenceGroups, file = '<profiles>'): TriangleProfile[] {
  return trianglesConditionsFromProfiles(text, refs, file).filter((p) => p.condition === 'tom');
}

/** A profile with its distances to the human groups of its condition (ToM by default). */
export function profileOf(subject: string, intent: number, approp: number, refs: ReferenceGroups, condition = 'tom'): TriangleProfile {
  const distances = trianglesGroups(refs, condition).map((g) => ({
    group: g.group,
    distance: Math.hypot(intent - g.intent, approp - g.approp),
  }));
  const nearest = distances.length ? distances.reduce((m, d) => (d.distance < m.distance ? d : m)).group : null;
  return { subject, condition: condition.toLowerCase(), intent, approp, distances, nearest };
}

export interface JointRow {
  subject: string;
  directorGap: number;
  /** Nearest of the two adult groups (the paper's Table 8). */
  directorNearest: string;
  /** Nearest in the wide set, with the age cohorts (the Appendix H sensitivity). */
  directorNearestWide: string;
  trianglesDistanceToTd: number;
  trianglesNearest: string | null;
  /** The nearest adult group differs between the tasks. */
  disagree: boolean;
}

/** The joint analysis: per subject with both tasks, the nearest group on each, the disagreement flag, and Spearman (gap, distance to TD). */
export function jointAnalysis(
  director: DirectorModel[],
  triangles: TriangleProfile[],
  refs: ReferenceGroups,
  tdGroup = 'TD adults',
): { rows: JointRow[]; spearman: number | null; disagreements: number } {
  const rows = director.flatMap((d) => {
    const t = triangles.find((x) => x.subject === d.model && x.condition === 'tom');
    if (!t) return [];
    const directorNearest = nearestDirectorGroup(d.gap, refs, 'adult');
    const td = t.distances.find((x) => x.group === tdGroup)?.distance ?? Number.NaN;
    return [
      {
        subject: d.model,
        directorGap: d.gap,
        directorNearest,
        directorNearestWide: nearestDirectorGroup(d.gap, refs, 'wide'),
        trianglesDistanceToTd: td,
        trianglesNearest: t.nearest,
        disagree: directorNearest !== t.nearest,
      },
    ];
  });
  return {
    rows,
    disagreements: rows.filter((r) => r.disagree).length,
    spearman:
      rows.length >= 3
        ? spearman(
            rows.map((r) => r.directorGap),
            rows.map((r) => r.trianglesDistanceToTd),
          )
        : null,
  };
}
