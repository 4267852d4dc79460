// Short display names for subjects: a model spec with a server URL or a file path is too long
// for a chart axis, and its distinguishing part (the model) comes last.

/** A subject spec shortened for tables and charts (provider prefix and long URLs cut). */
export function shortSubjectName(spec: string): string {
  const compat = /^openai-compatible:(?:https?:\/\/)?([^/#]+)[^#]*#(.+)$/.exec(spec);
  if (compat) return `${compat[2]} @${compat[1]}`;
  const local = /^llamacpp:(?:.*[\\/])?([^\\/]+)$/.exec(spec);
  if (local) return `llamacpp:${local[1]}`;
  return spec;
}

/** Short names for a set of subjects, falling back to the full spec where two would collide. */
export function displayNames(specs: string[]): Map<string, string> {
  const short = specs.map(shortSubjectName);
  const counts = new Map<string, number>();
  short.forEach((s) => counts.set(s, (counts.get(s) ?? 0) + 1));
  return new Map(specs.map((spec, i) => [spec, counts.get(short[i]!)! > 1 ? spec : short[i]!]));
}
