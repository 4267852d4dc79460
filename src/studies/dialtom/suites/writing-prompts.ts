// DialToM's item-writing prompts (the paper's Appendices K.1 and K.2: templates/dialtom-write-*.yaml,
// registered in the manifest as `writingPrompts`): reading a prompt file, filling it, and reading
// the replies. Each reader returns the text it found, or the problem with the reply, which the
// writer puts to the model when it asks again (app/paper-writer.ts).

import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { ConfigError } from '../../../core/index.js';
import { DIALTOM_STATES, type DialtomState } from './dialtom-builder.js';

export interface WritingPrompt {
  file: string;
  user: string;
  placeholders: string[];
}

export interface StateFormats {
  questions: Record<DialtomState, string>;
  prefixes: Record<DialtomState, string>;
}

function readYaml(file: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = YAML.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${file}: cannot read the prompt: ${(err as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object') throw new ConfigError(`${file}: expected a YAML mapping`);
  return parsed as Record<string, unknown>;
}

/** Read a writing prompt (YAML: `placeholders` and `user`); a placeholder in the text that is not declared is refused. */
export function loadWritingPrompt(file: string, expected: readonly string[]): WritingPrompt {
  const y = readYaml(file);
  if (typeof y.user !== 'string' || !y.user.trim()) throw new ConfigError(`${file}: the prompt needs a "user" text`);
  const placeholders = y.placeholders;
  if (!Array.isArray(placeholders) || placeholders.some((p) => typeof p !== 'string'))
    throw new ConfigError(`${file}: "placeholders" must be a list of names`);
  for (const m of y.user.matchAll(/\{(\w+)\}/g))
    if (!placeholders.includes(m[1]!))
      throw new ConfigError(`${file}: unknown placeholder {${m[1]}} (declared: ${placeholders.join(', ')})`);
  const unknown = placeholders.filter((p) => !expected.includes(p as string));
  if (unknown.length) throw new ConfigError(`${file}: this prompt can be given ${expected.join(', ')}, not ${unknown.join(', ')}`);
  return { file, user: y.user, placeholders: placeholders as string[] };
}

/** Read the mental state questions and prefixes (K.1): `questions` and `prefixes`, one per state. */
export function loadStateFormats(file: string): StateFormats {
  const y = readYaml(file);
  const table = (key: 'questions' | 'prefixes') => {
    const t = y[key] as Record<string, unknown> | undefined;
    for (const s of DIALTOM_STATES)
      if (typeof t?.[s] !== 'string' || !t[s]) throw new ConfigError(`${file}: "${key}" needs a text for ${s}`);
    return t as Record<DialtomState, string>;
  };
  return { questions: table('questions'), prefixes: table('prefixes') };
}

/** Fill a prompt's placeholders; each declared placeholder must be given. */
export function fillPrompt(prompt: WritingPrompt, values: Readonly<Record<string, string>>): string {
  for (const p of prompt.placeholders) if (values[p] === undefined) throw new Error(`${prompt.file}: no value for {${p}}`);
  return prompt.user.replace(/\{(\w+)\}/g, (m, name: string) => (prompt.placeholders.includes(name) ? values[name]! : m));
}

/** A reader's verdict on a reply: the text taken, or what is wrong with it (put to the model when it is asked again). */
export type Reading<T> = { ok: T } | { problem: string };

const startsWith = (text: string, prefix: string) => text.toLowerCase().startsWith(prefix.toLowerCase());

/** One line of a list, without its bullet, number, bold marks or "State:" label. */
function bare(line: string, state: string): string {
  return line
    .replace(/\*\*/g, '')
    .replace(/^\s*(?:[-*\u2022]|\(?\d+[.):]|\(?[A-Da-d][.):])\s*/, '')
    .replace(/^\s*(?:answer\s*\d*\s*:\s*)/i, '')
    .replace(new RegExp(`^\\s*${state}\\s*:\\s*`, 'i'), '')
    .replace(/^["\u201c]|["\u201d]$/g, '')
    .trim();
}

/** The four answers of the states prompt: lines that start with the state's prefix, the first the true state. */
export function readStateAnswers(reply: string, state: DialtomState, prefix: string): Reading<[string, string, string, string]> {
  const answers = [...new Set(reply.split('\n').map((l) => bare(l, state)))].filter((l) => startsWith(l, prefix));
  if (answers.length < 4)
    return {
      problem: `The reply gives ${answers.length} distinct answer(s) starting with "${prefix}"; four are needed, one per line, the first your most accurate answer.`,
    };
  return { ok: answers.slice(0, 4) as [string, string, string, string] };
}

/** An alternative continuation: as many "speaker: text" lines as the true one has (extra lines are dropped). */
export function readTrajectory(reply: string, turns: number): Reading<string> {
  const lines = reply
    .split('\n')
    .map((l) => l.replace(/\*\*/g, '').trim())
    .filter((l) => /^[^:\n]{1,40}:\s*\S/.test(l));
  if (lines.length < turns)
    return { problem: `The reply gives ${lines.length} "speaker: text" line(s); the format asks for ${turns}, one per line.` };
  return { ok: lines.slice(0, turns).join('\n') };
}

/** A counterfactual state: the reply's first line, without a "Counterfactual:" or "State:" label, starting with the prefix. */
export function readCounterfactual(reply: string, state: DialtomState, prefix: string): Reading<string> {
  const line = bare(
    reply
      .replace(/^\s*counterfactual\s*:\s*/i, '')
      .split('\n')
      .find((l) => l.trim()) ?? '',
    state,
  );
  if (!startsWith(line, prefix)) return { problem: `The counterfactual must follow the structure "${prefix} ...", on one line.` };
  return { ok: line };
}

/** Words of a text: its whitespace-separated tokens. */
export const wordCount = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** A summary in less than 50 words, as the prompt asks; a "Summary:" label is dropped. */
export function readSummary(reply: string): Reading<string> {
  const text = reply
    .trim()
    .replace(/^summary\s*:\s*/i, '')
    .trim();
  if (!text) return { problem: 'The reply is empty; write the summary.' };
  const n = wordCount(text);
  return n < 50 ? { ok: text } : { problem: `That summary has ${n} words. Rewrite it in less than 50 words.` };
}
