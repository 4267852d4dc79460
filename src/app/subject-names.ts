// How a person names a subject of a run, the same way everywhere (`compare --subjects`, the
// viewer's trial, trial-list and compare URLs): by its model spec (`openai:gpt-4o`), by its id
// (`s-...`, as `status --json` and the viewer's links give it), or by the short name reports
// show (`m @host` for an openai-compatible server, `llamacpp:FILE.gguf` for a local model).

import { ConfigError } from '../core/index.js';
import { displayNames } from '../report/index.js';

/** What `--help` says about naming subjects. */
export const SUBJECT_NAME_FORMS = 'a subject is named by its spec (openai:gpt-4o), its short name as reports show it, or its id (s-...)';

/**
 * The subject `name` names among `subjects` (each a spec, and an id where known): the spec
 * first, then the id, then the short name. An unknown name is a ConfigError naming `where` and
 * every subject.
 */
export function matchSubject<T extends { spec: string; id?: string }>(subjects: readonly T[], name: string, where: string): T {
  const wanted = name.trim();
  const short = displayNames(subjects.map((s) => s.spec));
  const found =
    subjects.find((s) => s.spec === wanted) ?? subjects.find((s) => s.id === wanted) ?? subjects.find((s) => short.get(s.spec) === wanted);
  if (found) return found;
  const known = subjects.map((s) => (s.id ? `${s.spec} (${s.id})` : s.spec)).join(', ');
  throw new ConfigError(`${where}: no subject "${wanted}" (${SUBJECT_NAME_FORMS}); the subjects: ${known || 'none'}`);
}
