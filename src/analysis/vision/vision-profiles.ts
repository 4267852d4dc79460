// The VLM paper's summary-level analyses. Director Task: per model, the shares right on (a)
// which blocks the director sees, (b) which block to move (the trap), c.Q1 and c.Q2 (the
// two-step gate), the egocentric rate on (b), the explicit-implicit gap P(a) - P(b) and the
// recovery P(c.Q2) - P(b); panel means are means over models. Animated triangles: per subject,
// the ToM-condition profile (mean Intent, mean Approp) and its Euclidean distance to each
// human reference group. Joint: the nearest group on each task, whether they disagree, and
// Spearman between the Director gap and the triangles distance to TD adults.

import { InputError, parseCsv } from '../../core/index.js';
import { spearman } from '../../stats/index.js';

export interface ReferenceGroups {
  triangles: Array<{ group: string; intent: number; approp: number; source: string }>;
  director: Array<{ group: string; gap: number; source: string }>;
}

export function parseReferenceGroups(json: unknown, where = '<references>'): ReferenceGroups {
  const r = json as Partial<ReferenceGroups>;
  if (!r || !Array.isArray(r.triangles) || !Array.isArray(r.director))
    throw new InputError('expected { triangles: [...], director: [...] }', where);
  for (const t of r.triangles)
    if (typeof t.group !== 'string' || !Number.isFinite(t.intent) || !Number.isFinite(t.approp))
      throw new InputError('each triangles group needs group, intent and approp', where);
  for (const d of r.director)
    if (typeof d.group !== 'string' || !Number.isFinite(d.gap)) throw new InputError('each director group needs group and gap', where);
  return r as ReferenceGroups;
}

function table(text: string, file: string, columns: string[]): Array<{ line: number; get: (c: string) => string }> {
  const rows = parseCsv(text);
  if (rows.length < 2) throw new InputError(`expected a header (${columns.join(',')}) and rows`, file);
  const header = rows[0]!.fields.map((h) => h.trim().toLowerCase());
  for (const c of columns) if (!header.includes(c)) throw new InputError(`no "${c}" column (expected ${columns.join(',')})`, file, 1);
  return rows.slice(1).map((r) => {
    if (r.fields.length !== header.length)
      throw new InputError(`row has ${r.fields.length} fields, the header has ${header.length}`, file, r.line);
    return { line: r.line, get: (c: string) => r.fields[header.indexOf(c)]!.trim() };
  });
}

export interface DirectorModel {
  model: string;
  scenes: number;
  a: number;
  b: number;
  cQ1: number;
  cQ2: number;
  egocentric: number;
  gap: number;
  recovery: number;
}

/** Counts CSV: model,a,b,c_q1,c_q2,egocentric_b,scenes. */
export function directorFromCounts(
  text: string,
  file = '<counts>',
): { models: DirectorModel[]; panel: Omit<DirectorModel, 'model' | 'scenes'> } {
  const cols = ['model', 'a', 'b', 'c_q1', 'c_q2', 'egocentric_b', 'scenes'];
  const models = table(text, file, cols).map(({ line, get }) => {
    const n = (c: string) => {
      const v = Number(get(c));
      if (get(c) === '' || !Number.isInteger(v) || v < 0) throw new InputError(`${c} must be a whole number, not "${get(c)}"`, file, line);
      return v;
    };
    const scenes = n('scenes');
    if (scenes === 0) throw new InputError('scenes must be positive', file, line);
    for (const c of cols.slice(1, 6)) if (n(c) > scenes) throw new InputError(`${c} (${n(c)}) exceeds scenes (${scenes})`, file, line);
    const share = (c: string) => n(c) / scenes;
    const a = share('a');
    const b = share('b');
    const cQ1 = share('c_q1');
    const cQ2 = share('c_q2');
    const egocentric = share('egocentric_b');
    return { model: get('model'), scenes, a, b, cQ1, cQ2, egocentric, gap: a - b, recovery: cQ2 - b };
  });
  const mean = (f: (m: DirectorModel) => number) => models.reduce((s, m) => s + f(m), 0) / models.length;
  return {
    models,
    panel: {
      a: mean((m) => m.a),
      b: mean((m) => m.b),
      cQ1: mean((m) => m.cQ1),
      cQ2: mean((m) => m.cQ2),
      egocentric: mean((m) => m.egocentric),
      gap: mean((m) => m.gap),
      recovery: mean((m) => m.recovery),
    },
  };
}

export interface TriangleProfile {
  subject: string;
  intent: number;
  approp: number;
  distances: Array<{ group: string; distance: number }>;
  nearest: string;
}

/** Profiles CSV: subject,condition,intent,approp (one row per subject and condition, or per clip). */
export function trianglesFromProfiles(text: string, refs: ReferenceGroups, file = '<profiles>'): TriangleProfile[] {
  const rows = table(text, file, ['subject', 'condition', 'intent', 'approp']).map(({ line, get }) => {
    const intent = Number(get('intent'));
    const approp = Number(get('approp'));
    if (!(intent >= 0 && intent <= 5)) throw new InputError(`intent must lie in [0, 5], not "${get('intent')}"`, file, line);
    if (!(approp >= 0 && approp <= 3)) throw new InputError(`approp must lie in [0, 3], not "${get('approp')}"`, file, line);
    return { subject: get('subject'), condition: get('condition').toLowerCase(), intent, approp };
  });
  const subjects = [...new Set(rows.map((r) => r.subject))];
  return subjects.flatMap((subject) => {
    const tom = rows.filter((r) => r.subject === subject && r.condition === 'tom');
    if (tom.length === 0) return [];
    const intent = tom.reduce((s, r) => s + r.intent, 0) / tom.length;
    const approp = tom.reduce((s, r) => s + r.approp, 0) / tom.length;
    return [profileOf(subject, intent, approp, refs)];
  });
}

export function profileOf(subject: string, intent: number, approp: number, refs: ReferenceGroups): TriangleProfile {
  const distances = refs.triangles.map((g) => ({ group: g.group, distance: Math.hypot(intent - g.intent, approp - g.approp) }));
  return { subject, intent, approp, distances, nearest: distances.reduce((m, d) => (d.distance < m.distance ? d : m)).group };
}

export interface JointRow {
  subject: string;
  directorGap: number;
  directorNearest: string;
  trianglesDistanceToTd: number;
  trianglesNearest: string;
  disagree: boolean;
}

export function jointAnalysis(
  director: DirectorModel[],
  triangles: TriangleProfile[],
  refs: ReferenceGroups,
  tdGroup = 'TD adults',
): { rows: JointRow[]; spearman: number | null } {
  const rows = director.flatMap((d) => {
    const t = triangles.find((x) => x.subject === d.model);
    if (!t) return [];
    const directorNearest = refs.director.reduce((m, g) => (Math.abs(d.gap - g.gap) < Math.abs(d.gap - m.gap) ? g : m)).group;
    const td = t.distances.find((x) => x.group === tdGroup)?.distance ?? Number.NaN;
    return [
      {
        subject: d.model,
        directorGap: d.gap,
        directorNearest,
        trianglesDistanceToTd: td,
        trianglesNearest: t.nearest,
        disagree: directorNearest !== t.nearest,
      },
    ];
  });
  return {
    rows,
    spearman:
      rows.length >= 3
        ? spearman(
            rows.map((r) => r.directorGap),
            rows.map((r) => r.trianglesDistanceToTd),
          )
        : null,
  };
}
