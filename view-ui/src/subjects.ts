// How the page's addresses name subjects, as `mindscope compare --subjects` does: by spec, by
// the short name reports show, or by id (the server resolves them the same way; a static export
// has no server, so the page does it here).

import { displayNames } from '../../src/report/subject-names.js';

/** The subject of `subjects` that `name` names (spec first, then id, then short name), if any. */
export function subjectNamed<T extends { spec: string; id?: string }>(subjects: readonly T[], name: string): T | undefined {
  const short = displayNames([...new Set(subjects.map((s) => s.spec))]);
  return subjects.find((s) => s.spec === name) ?? subjects.find((s) => s.id === name) ?? subjects.find((s) => short.get(s.spec) === name);
}
