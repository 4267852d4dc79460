// A rubric is a file (YAML or JSON): a prompt template, the score fields with their ranges,
// and optionally keywords for the offline keyword judge. Its SHA-256 over the file's bytes
// pins it: a run that was scored with one rubric refuses another under the same name.
//
//   name: appropriateness
//   prompt: |
//     Rate the answer of subject {subject} to the question below ...
//     {question}
//     Answer: {response}
//     Reply with JSON: {"intent": 0-5, "approp": 0-3}
//   fields:
//     - { name: intent, min: 0, max: 5, integer: true }
//     - { name: approp, min: 0, max: 3, integer: true }
//   keywords: { intent: [wants, tries, trick], approp: [because] }

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import YAML from 'yaml';
import { checkJsonDepth, InputError, namedFile, namedFiles } from '../core/index.js';

export interface RubricField {
  name: string;
  min: number;
  max: number;
  integer: boolean;
}

export interface Rubric {
  name: string;
  prompt: string;
  fields: RubricField[];
  /** For agent:keyword-judge: per field, words that each add a point (capped at the maximum). */
  keywords?: Record<string, string[]>;
  /** Placeholders holding the texts judged, when there are several (a pairwise rubric); default {response}. */
  responses?: string[];
  sha256: string;
  file: string;
}

/** Parse and check a rubric's text (YAML or JSON); errors name the file and the field. */
export function parseRubric(text: string, file: string): Rubric {
  let raw: unknown;
  try {
    raw = file.endsWith('.json') ? JSON.parse(text) : YAML.parse(text);
  } catch (err) {
    throw new InputError(`not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(err as Error).message}`, file);
  }
  if (file.endsWith('.json')) checkJsonDepth(text, file);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new InputError('a rubric is an object with name, prompt and fields', file);
  const r = raw as Record<string, unknown>;
  const known = ['name', 'prompt', 'fields', 'keywords', 'responses'];
  for (const k of Object.keys(r))
    if (!known.includes(k)) throw new InputError(`unknown rubric field "${k}" (a rubric has ${known.join(', ')})`, file);
  if (typeof r.name !== 'string' || !r.name) throw new InputError('rubric field "name" is missing', file);
  const responses = r.responses === undefined ? undefined : r.responses;
  if (responses !== undefined && (!Array.isArray(responses) || responses.length === 0 || responses.some((x) => typeof x !== 'string')))
    throw new InputError('rubric field "responses" must list the placeholders of the texts judged', file);
  for (const name of (responses as string[] | undefined) ?? ['response'])
    if (typeof r.prompt !== 'string' || !r.prompt.includes(`{${name}}`))
      throw new InputError(`rubric field "prompt" must be a template that includes {${name}}`, file);
  if (!Array.isArray(r.fields) || r.fields.length === 0)
    throw new InputError('rubric field "fields" must list at least one score field', file);
  const fields = r.fields.map((f: unknown, i: number) => {
    if (!f || typeof f !== 'object' || Array.isArray(f)) throw new InputError(`fields[${i}] must be an object { name, min, max }`, file);
    const o = f as Record<string, unknown>;
    if (typeof o.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(o.name))
      throw new InputError(`fields[${i}]: "name" must be an identifier`, file);
    // Number('') and Number(null) are 0: only real numbers count.
    const min = typeof o.min === 'number' ? o.min : Number.NaN;
    const max = typeof o.max === 'number' ? o.max : Number.NaN;
    if (!Number.isFinite(min) || !Number.isFinite(max) || min >= max)
      throw new InputError(`fields[${i}] (${o.name}): needs numbers min < max`, file);
    if (o.integer !== undefined && typeof o.integer !== 'boolean')
      throw new InputError(`fields[${i}] (${o.name}): "integer" must be true or false, got ${JSON.stringify(o.integer)}`, file);
    return { name: o.name, min, max, integer: o.integer !== false };
  });
  if (new Set(fields.map((f) => f.name)).size !== fields.length) throw new InputError('two score fields share a name', file);
  const keywords = r.keywords as Record<string, string[]> | undefined;
  if (keywords !== undefined && (!keywords || typeof keywords !== 'object' || Array.isArray(keywords)))
    throw new InputError('rubric field "keywords" must map score fields to lists of words', file);
  for (const [k, words] of Object.entries(keywords ?? {})) {
    if (!fields.some((f) => f.name === k)) throw new InputError(`keywords name the unknown field "${k}"`, file);
    if (!Array.isArray(words) || words.some((w) => typeof w !== 'string' || !w))
      throw new InputError(`keywords.${k} must be a list of words, got ${JSON.stringify(words)}`, file);
  }
  return {
    name: r.name,
    prompt: r.prompt as string,
    fields,
    keywords,
    ...(responses ? { responses: responses as string[] } : {}),
    sha256: createHash('sha256').update(text).digest('hex'),
    file,
  };
}

/**
 * Load a rubric from a file, or one a plugin registered by name (the seed studies': e.g.
 * `castelli-triangles`, `dialtom-inference`, `commet-open-answer`) when no file of that name exists.
 */
export function loadRubric(pathOrName: string): Rubric {
  const registered = existsSync(pathOrName) ? undefined : namedFile('rubric', pathOrName);
  const path = registered ?? pathOrName;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // A name that is neither a file nor a built-in rubric: say which names there are.
    const names =
      code === 'ENOENT' && !/[\\/.]/.test(pathOrName) ? ` (no such file; the built-in rubrics are ${namedFiles('rubric').join(', ')})` : '';
    throw new InputError(`cannot read: ${code ?? (err as Error).message}${names}`, path);
  }
  return parseRubric(text, path);
}

/** The judge prompt: {name} placeholders replaced; unknown placeholders are an error. */
export function renderRubric(rubric: Rubric, vars: Record<string, string>): string {
  return rubric.prompt.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_whole, key: string) => {
    if (!(key in vars))
      throw new InputError(
        `the prompt uses {${key}}, which this scoring does not provide (it has ${Object.keys(vars).join(', ')})`,
        rubric.file,
      );
    return vars[key]!;
  });
}

/** The JSON schema a judge's output must satisfy. */
export function outputSchema(rubric: Rubric): Record<string, unknown> {
  return {
    type: 'object',
    required: rubric.fields.map((f) => f.name),
    properties: Object.fromEntries(
      rubric.fields.map((f) => [f.name, { type: f.integer ? 'integer' : 'number', minimum: f.min, maximum: f.max }]),
    ),
  };
}
