// Same-family analysis: judges may favour their own family's models. Given a family per model
// spec, each field's mean score over all (judge, subject) cells and over the cells where judge
// and subject are of different families.

export interface JudgeCell {
  judge: string;
  subject: string;
  field: string;
  value: number;
}

export interface FamilyComparison {
  field: string;
  all: number;
  withoutInFamily: number | null;
  cells: number;
  inFamilyCells: number;
}

/** Per rubric field, the mean score with and without the cells where judge and subject come from the same model family. */
export function familyAnalysis(cells: JudgeCell[], familyOf: (spec: string) => string | undefined): FamilyComparison[] {
  const fields = [...new Set(cells.map((c) => c.field))];
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
  return fields.map((field) => {
    const mine = cells.filter((c) => c.field === field);
    const inFamily = mine.filter((c) => {
      const a = familyOf(c.judge);
      return a !== undefined && a === familyOf(c.subject);
    });
    return {
      field,
      all: mean(mine.map((c) => c.value))!,
      withoutInFamily: mean(mine.filter((c) => !inFamily.includes(c)).map((c) => c.value)),
      cells: mine.length,
      inFamilyCells: inFamily.length,
    };
  });
}

/** "openai:gpt-4o" -> "openai"; a map file can say otherwise (spec or provider -> family). */
export function defaultFamily(spec: string, map: Record<string, string> = {}): string | undefined {
  if (map[spec]) return map[spec];
  const provider = spec.split(':')[0]!;
  return map[provider] ?? (provider === 'agent' || provider === 'team' ? undefined : provider);
}
