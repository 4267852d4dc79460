// Human reference groups for the vision ToM tasks, with their sources: on the Director Task the
// explicit-implicit gap P(a) - P(b) of each group (adult groups and Dumontheil et al.'s age
// cohorts), on the animated triangles each group's (Intent, Approp) profile per condition, and
// egocentric reach rates that bracket the Director results without being a gap (Epley et al.).
// `sets` says which reference set a Director group belongs to: 'adult' (the paper's two-adult
// set, Table 8) or 'wide' (adult plus the age cohorts, the Appendix H sensitivity).

import { z } from 'zod';
import { InputError } from '../../../core/index.js';

/** The animated-triangles conditions, in the paper's order. */
export const TRIANGLE_CONDITIONS = ['tom', 'goal-directed', 'random'] as const;

const SourceRef = {
  /** Short human-readable source (authors, year, group, table). */
  source: z.string().optional(),
  /** Key into `sources` for the full citation. */
  ref: z.string().optional(),
  note: z.string().optional(),
};

const TrianglesGroup = z.object({
  group: z.string().min(1),
  /** tom (default), goal-directed or random. */
  condition: z.string().default('tom'),
  intent: z.number().min(0).max(5),
  approp: z.number().min(0).max(3),
  ...SourceRef,
});

const DirectorGroup = z.object({
  group: z.string().min(1),
  gap: z.number().min(-1).max(1),
  /** Reference sets the group belongs to (default both). */
  sets: z.array(z.enum(['adult', 'wide'])).default(['adult', 'wide']),
  /** The published values a pooled gap was computed from. */
  components: z.array(z.object({ gap: z.number(), ...SourceRef })).optional(),
  ...SourceRef,
});

const ReachGroup = z.object({ group: z.string().min(1), rate: z.number().min(0).max(1), ...SourceRef });

const ReferencesSchema = z.object({
  description: z.string().optional(),
  sources: z.record(z.string(), z.object({ citation: z.string(), doi: z.string().optional() })).default({}),
  triangles: z.array(TrianglesGroup),
  director: z.array(DirectorGroup).min(1),
  egocentricReach: z.array(ReachGroup).default([]),
});

export type ReferenceGroups = z.infer<typeof ReferencesSchema>;
export type DirectorReferenceSet = 'adult' | 'wide';

/** Parse a reference file (data/human-references.json's shape); errors name the file and the field. */
export function parseReferenceGroups(json: unknown, where = '<references>'): ReferenceGroups {
  const r = ReferencesSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new InputError(`${issue.path.join('.') || '(top level)'}: ${issue.message}`, where);
  }
  const refs = r.data;
  for (const [i, g] of [...refs.triangles, ...refs.director, ...refs.egocentricReach].entries())
    if (g.ref !== undefined && !(g.ref in refs.sources))
      throw new InputError(`group ${i} (${g.group}) cites "${g.ref}", which sources lacks`, where);
  for (const g of refs.triangles) g.condition = g.condition.toLowerCase();
  return refs;
}

/** The Director groups of a reference set. */
export function directorGroups(refs: ReferenceGroups, set: DirectorReferenceSet = 'adult'): ReferenceGroups['director'] {
  return refs.director.filter((g) => g.sets.includes(set));
}

/** The Director group whose gap is nearest (|x - x_H|, the paper's rule), within a reference set. */
export function nearestDirectorGroup(gap: number, refs: ReferenceGroups, set: DirectorReferenceSet = 'adult'): string {
  const groups = directorGroups(refs, set);
  if (groups.length === 0) throw new InputError(`the references have no Director group in the "${set}" set`, '<references>');
  return groups.reduce((m, g) => (Math.abs(gap - g.gap) < Math.abs(gap - m.gap) ? g : m)).group;
}

/** The triangles groups with a profile for a condition. */
export function trianglesGroups(refs: ReferenceGroups, condition: string): ReferenceGroups['triangles'] {
  return refs.triangles.filter((g) => g.condition === condition.toLowerCase());
}

/** A group's full citation, or its short source, or ''. */
export function citationOf(refs: ReferenceGroups, g: { ref?: string; source?: string }): string {
  const s = g.ref ? refs.sources[g.ref] : undefined;
  return s ? `${s.citation}${s.doi ? ` doi:${s.doi}` : ''}` : (g.source ?? '');
}
