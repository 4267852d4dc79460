// Prompt templates for multiple-choice items. The defaults are mindscope's own; a user file
// (YAML or JSON with `system` and `user`, or plain text for `user` alone) replaces them, and the
// benchmarks' published prompts ship as named templates (templates/NAME.yaml, see
// BUILTIN_TEMPLATES), so `--template tombench` runs ToMBench's own prompt.
//
// Placeholders: {context}, {question}, {options} (one line per option, written by `option`,
// default "{label}. {text}"), {labels} ("A, B, C"), {trace} (a masked teacher trace, when the
// run injects traces), and the item's own fields (`item.meta`, e.g. DialToM's {topic},
// {session}, {initiator}, {recipient}, {state}, {profile}) when the template declares them
// under `itemFields`: an undeclared placeholder is a typo and refused when the file is read; an
// item without a declared field is refused before the run starts, with the template's
// `itemFieldNotes` on that field (why items may lack it, where to get it).

import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { checkJsonDepth, ConfigError, namedFile, namedFiles } from '../../core/index.js';
import type { McqOption } from '../../core/index.js';

export interface McqTemplate {
  system?: string;
  user: string;
  /** How one option is written into {options}, with {label} and {text} (default "{label}. {text}"). */
  option?: string;
  /** What goes between two options in {options} (default a newline). */
  optionSeparator?: string;
  /** Item fields (item.meta) the template uses as placeholders. */
  itemFields?: string[];
  /** Why an item may lack a field and where to get it, by field: added to the error that refuses such an item. */
  itemFieldNotes?: Record<string, string>;
  /** Keep the rendered prompt's leading whitespace (published prompts reproduced byte for byte). */
  verbatim?: boolean;
  /** Regular expressions whose first group is the chosen label, tried in order before the default reading. */
  answerPatterns?: string[];
}

export const DEFAULT_MCQ_TEMPLATE: McqTemplate = {
  system:
    'You are taking a reading-comprehension test about what people think, feel, want and know. ' +
    'Read the text, then choose the single best option.',
  user: '{context}\n\nQuestion: {question}\n{options}\n\nReply with the letter of the best option ({labels}) in the form "Answer: X".',
};

const CORE_PLACEHOLDERS = ['context', 'question', 'options', 'labels', 'trace'];

/** Whether a template argument names a registered template (and no file of that name exists). */
export function isBuiltinTemplate(pathOrName: string): boolean {
  return namedFile('template', pathOrName) !== undefined && !existsSync(pathOrName);
}

/**
 * The file a template argument stands for: the file itself, or the file of a template a plugin
 * registered under that name (the seed studies' published prompts: ToMBench, ToMATO, DialToM).
 */
export function templateFile(pathOrName: string): string {
  if (isBuiltinTemplate(pathOrName)) return namedFile('template', pathOrName)!;
  if (!existsSync(pathOrName) && /^[a-z][a-z0-9-]*$/.test(pathOrName))
    throw new ConfigError(
      `template "${pathOrName}": no such file or built-in template (built-in: ${namedFiles('template').join(', ') || 'none'})`,
    );
  return pathOrName;
}

function stringList(value: unknown, what: string, path: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new ConfigError(`${path}: "${what}" must be a list of strings`);
  return value as string[];
}

function itemFieldNotes(value: unknown, itemFields: string[], path: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new ConfigError(`${path}: "itemFieldNotes" must map item fields to texts`);
  for (const [k, v] of Object.entries(value)) {
    if (!itemFields.includes(k)) throw new ConfigError(`${path}: itemFieldNotes: "${k}" is not listed under itemFields`);
    if (typeof v !== 'string') throw new ConfigError(`${path}: itemFieldNotes: the note on "${k}" must be a string`);
  }
  return value as Record<string, string>;
}

function checkPlaceholders(text: string, declared: string[], path: string, where: string): void {
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    const name = m[1]!;
    if (!CORE_PLACEHOLDERS.includes(name) && !declared.includes(name))
      throw new ConfigError(
        `${path}: unknown placeholder {${name}} in ${where} (known: ${CORE_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}; an item field must be listed under itemFields)`,
      );
  }
}

/** The YAML parser, loaded when a YAML template is first read (readers of stored trials load this protocol without reading one). */
let yaml: typeof import('yaml') | undefined;
function parseYaml(text: string): unknown {
  yaml ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yaml.parse(text);
}

/** Read a template file, or a registered template by name (see templateFile). */
export function loadMcqTemplate(pathOrName: string): McqTemplate {
  const path = templateFile(pathOrName);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`${path}: cannot read the template: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let template: McqTemplate;
  if (/\.(ya?ml|json)$/i.test(path)) {
    let parsed: Record<string, unknown> | null;
    try {
      parsed = (path.endsWith('.json') ? JSON.parse(text) : parseYaml(text)) as Record<string, unknown> | null;
    } catch (err) {
      throw new ConfigError(`${path}: not valid ${path.endsWith('.json') ? 'JSON' : 'YAML'}: ${(err as Error).message}`);
    }
    if (path.endsWith('.json')) checkJsonDepth(text, path);
    if (!parsed || typeof parsed.user !== 'string') throw new ConfigError(`${path}: the template needs a "user" string`);
    for (const k of ['system', 'option', 'optionSeparator'] as const)
      if (parsed[k] !== undefined && typeof parsed[k] !== 'string') throw new ConfigError(`${path}: "${k}" must be a string`);
    if (parsed.verbatim !== undefined && typeof parsed.verbatim !== 'boolean')
      throw new ConfigError(`${path}: "verbatim" must be true or false`);
    template = { user: parsed.user };
    if (parsed.system !== undefined) template.system = parsed.system as string;
    if (parsed.option !== undefined) template.option = parsed.option as string;
    if (parsed.optionSeparator !== undefined) template.optionSeparator = parsed.optionSeparator as string;
    const itemFields = stringList(parsed.itemFields, 'itemFields', path);
    if (itemFields) template.itemFields = itemFields;
    const notes = itemFieldNotes(parsed.itemFieldNotes, itemFields ?? [], path);
    if (notes) template.itemFieldNotes = notes;
    if (parsed.verbatim) template.verbatim = true;
    const patterns = stringList(parsed.answerPatterns, 'answerPatterns', path);
    if (patterns) {
      for (const p of patterns) {
        let re: RegExp;
        try {
          re = new RegExp(p);
        } catch (err) {
          throw new ConfigError(`${path}: answerPatterns: /${p}/ is not a regular expression: ${(err as Error).message}`);
        }
        if (new RegExp(`${re.source}|`).exec('')!.length < 2)
          throw new ConfigError(`${path}: answerPatterns: /${p}/ needs a group for the label`);
      }
      template.answerPatterns = patterns;
    }
  } else {
    template = { user: text };
  }
  const declared = template.itemFields ?? [];
  checkPlaceholders(template.user, declared, path, 'user');
  if (template.system) checkPlaceholders(template.system, declared, path, 'system');
  if (template.option !== undefined && !template.option.includes('{label}'))
    throw new ConfigError(`${path}: "option" must contain {label}`);
  if (!template.user.includes('{question}') && !template.user.includes('{options}'))
    throw new ConfigError(`${path}: the template must contain {question} or {options}`);
  return template;
}

/** What a template is filled with: the item's text, the presented options, its fields and an injected trace. */
export interface McqRenderFields {
  context: string;
  question: string;
  options: McqOption[];
  /** The item's fields (item.meta), for templates that declare them. */
  meta?: Record<string, unknown>;
  /** The masked teacher trace, for templates with {trace}. */
  trace?: string;
}

/** The item fields a template needs that an item lacks (an empty list when it has them all). */
export function missingItemFields(template: McqTemplate, meta: Record<string, unknown>): string[] {
  return (template.itemFields ?? []).filter((f) => !['string', 'number', 'boolean'].includes(typeof meta[f]));
}

/**
 * Fill a template text. A string is rendered with the default option format; a template object
 * brings its option format and whitespace rule. Leading whitespace is dropped (an empty
 * {context} first) unless the template is verbatim.
 */
export function renderMcq(template: string | McqTemplate, fields: McqRenderFields, text?: string): string {
  const t = typeof template === 'string' ? { user: template } : template;
  const values: Record<string, string> = {
    context: fields.context,
    question: fields.question,
    options: renderOptions(t.option ?? '{label}. {text}', fields.options, t.optionSeparator ?? '\n'),
    labels: fields.options.map((o) => o.label).join(', '),
    trace: fields.trace ?? '',
  };
  const declared = t.itemFields ?? [];
  let rendered = '';
  for (const part of segments(text ?? t.user)) {
    if (typeof part === 'string') rendered += part;
    else if (part.name in values) rendered += values[part.name]!;
    else if (declared.includes(part.name) && fields.meta && fields.meta[part.name] !== undefined)
      rendered += String(fields.meta[part.name]);
    else rendered += part.whole;
  }
  // trimStart drops what /^\s+/ matches (white space and line terminators).
  return t.verbatim ? rendered : rendered.trimStart();
}

/** A template text cut at its placeholders ({name}): literal text, and placeholders by name. */
type Segment = string | { name: string; whole: string };
const segmented = new Map<string, Segment[]>();

/** A text's segments, cut once per text (a run renders the same template for every trial). */
function segments(text: string): Segment[] {
  let parts = segmented.get(text);
  if (!parts) {
    parts = [];
    let at = 0;
    for (const m of text.matchAll(/\{(\w+)\}/g)) {
      if (m.index > at) parts.push(text.slice(at, m.index));
      parts.push({ name: m[1]!, whole: m[0] });
      at = m.index + m[0].length;
    }
    if (at < text.length) parts.push(text.slice(at));
    if (segmented.size >= 1000) segmented.clear();
    segmented.set(text, parts);
  }
  return parts;
}

/** The options in the option format ({label}, {text}), joined by the separator. */
function renderOptions(format: string, options: McqOption[], separator: string): string {
  const parts = segments(format);
  let out = '';
  for (let i = 0; i < options.length; i++) {
    if (i) out += separator;
    const o = options[i]!;
    for (const part of parts) {
      if (typeof part === 'string') out += part;
      else if (part.name === 'label') out += o.label;
      else if (part.name === 'text') out += o.text;
      else out += part.whole;
    }
  }
  return out;
}
