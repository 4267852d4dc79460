// Prompt templates for multiple-choice items. The defaults are mindscope's own; a user file
// (YAML or JSON with `system` and `user`, or plain text for `user` alone) replaces them.
// Placeholders: {context}, {question}, {options} (one "A. text" line each), {labels} ("A, B, C").

import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { ConfigError } from '../../core/index.js';
import type { McqOption } from '../../core/index.js';

export interface McqTemplate {
  system?: string;
  user: string;
}

export const DEFAULT_MCQ_TEMPLATE: McqTemplate = {
  system:
    'You are taking a reading-comprehension test about what people think, feel, want and know. ' +
    'Read the text, then choose the single best option.',
  user: '{context}\n\nQuestion: {question}\n{options}\n\nReply with the letter of the best option ({labels}) in the form "Answer: X".',
};

const PLACEHOLDERS = ['context', 'question', 'options', 'labels'];

export function loadMcqTemplate(path: string): McqTemplate {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`${path}: cannot read the template: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let template: McqTemplate;
  if (/\.(ya?ml|json)$/i.test(path)) {
    const parsed = (path.endsWith('.json') ? JSON.parse(text) : YAML.parse(text)) as Partial<McqTemplate> | null;
    if (!parsed || typeof parsed.user !== 'string') throw new ConfigError(`${path}: the template needs a "user" string`);
    if (parsed.system !== undefined && typeof parsed.system !== 'string') throw new ConfigError(`${path}: "system" must be a string`);
    template = { system: parsed.system, user: parsed.user };
  } else {
    template = { user: text };
  }
  for (const m of template.user.matchAll(/\{(\w+)\}/g)) {
    if (!PLACEHOLDERS.includes(m[1]!))
      throw new ConfigError(`${path}: unknown placeholder {${m[1]}} (known: ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`);
  }
  if (!template.user.includes('{question}')) throw new ConfigError(`${path}: the template must contain {question}`);
  return template;
}

export function renderMcq(template: string, fields: { context: string; question: string; options: McqOption[] }): string {
  const values: Record<string, string> = {
    context: fields.context,
    question: fields.question,
    options: fields.options.map((o) => `${o.label}. ${o.text}`).join('\n'),
    labels: fields.options.map((o) => o.label).join(', '),
  };
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole).replace(/^\s+/, '');
}
