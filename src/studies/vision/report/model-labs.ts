// The lab (provider organisation) of a tested model, for colouring the paper's figures by lab,
// and short model names for their labels. A model's lab comes from the user's map (a spec or a
// provider prefix -> lab) first, then from the organisation a gateway puts before the model's
// name ("anthropic/claude-opus-4.7"), then from the name itself (claude, gpt, gemini, grok,
// kimi, qwen, ...), then from the provider prefix (anthropic:, openai:, google:); reference
// agents are their own group. Every lab keeps one colour across figures.

import { displayNames } from '../../../report/index.js';

const ORGS: Record<string, string> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  google: 'Google',
  'x-ai': 'xAI',
  xai: 'xAI',
  moonshotai: 'Moonshot',
  moonshot: 'Moonshot',
  qwen: 'Alibaba (Qwen)',
  alibaba: 'Alibaba (Qwen)',
  deepseek: 'DeepSeek',
  'deepseek-ai': 'DeepSeek',
  'meta-llama': 'Meta',
  meta: 'Meta',
  mistralai: 'Mistral',
  mistral: 'Mistral',
};

const NAME_PATTERNS: Array<[RegExp, string]> = [
  [/claude/i, 'Anthropic'],
  [/^(gpt|o\d|chatgpt)/i, 'OpenAI'],
  [/gemini|gemma/i, 'Google'],
  [/grok/i, 'xAI'],
  [/kimi|moonshot/i, 'Moonshot'],
  [/qwen|qwq/i, 'Alibaba (Qwen)'],
  [/deepseek/i, 'DeepSeek'],
  [/llama/i, 'Meta'],
  [/mistral|mixtral|pixtral/i, 'Mistral'],
];

/** The group of the reference agents (agent:...). */
export const REFERENCE_AGENTS = 'reference agents';

/** The model's own name in a spec: after the provider prefix, after a server URL's '#', after a gateway's organisation. */
function modelName(spec: string): { org?: string; name: string } {
  const rest = spec.includes(':') ? spec.slice(spec.indexOf(':') + 1) : spec;
  // A local model file: its file name.
  if (spec.startsWith('llamacpp:')) return { name: rest.split(/[\\/]/).pop()! };
  const name = spec.startsWith('openai-compatible:') ? rest.slice(rest.lastIndexOf('#') + 1) : rest;
  const slash = name.lastIndexOf('/');
  return slash > 0 ? { org: name.slice(0, slash).split('/').pop()!, name: name.slice(slash + 1) } : { name };
}

/** The lab of a model spec (`labs`: spec or provider prefix -> lab, first). */
export function modelLab(spec: string, labs: Readonly<Record<string, string>> = {}): string {
  const provider = spec.includes(':') ? spec.slice(0, spec.indexOf(':')) : '';
  if (labs[spec]) return labs[spec]!;
  if (provider && labs[provider]) return labs[provider]!;
  if (provider === 'agent' || provider === 'team') return REFERENCE_AGENTS;
  const { org, name } = modelName(spec);
  if (org && ORGS[org.toLowerCase()]) return ORGS[org.toLowerCase()]!;
  for (const [re, lab] of NAME_PATTERNS) if (re.test(name)) return lab;
  if (ORGS[provider]) return ORGS[provider]!;
  return org ?? (provider || spec);
}

/** Labels for figures: the model's own name where that is unique, else the display name. */
export function figureLabels(specs: string[]): Map<string, string> {
  const short = specs.map((s) => (s.startsWith('agent:') ? s : modelName(s).name));
  const fallback = displayNames(specs);
  return new Map(specs.map((s, i) => [s, short.filter((x) => x === short[i]).length > 1 ? fallback.get(s)! : short[i]!]));
}

/** Each lab's colour; labs not listed take the fallback colours in order of appearance. */
const LAB_COLOURS: Record<string, string> = {
  Anthropic: '#c15f3c',
  OpenAI: '#10a37f',
  Google: '#4285f4',
  xAI: '#3d3d3d',
  Moonshot: '#8e44ad',
  'Alibaba (Qwen)': '#e8a317',
  DeepSeek: '#1b3fa0',
  Meta: '#0ab5c4',
  Mistral: '#d6336c',
  [REFERENCE_AGENTS]: '#9a9a9a',
};
const FALLBACK = ['#7f3c8d', '#11a579', '#3969ac', '#f2b701', '#e73f74', '#80ba5a', '#e68310', '#008695'];

/** The colour of each lab, in the order given (known labs keep theirs; the others take distinct fallback colours). */
export function labColours(labs: string[]): string[] {
  let next = 0;
  const used = new Set(labs.map((l) => LAB_COLOURS[l]).filter(Boolean));
  return labs.map((l) => {
    if (LAB_COLOURS[l]) return LAB_COLOURS[l]!;
    while (used.has(FALLBACK[next % FALLBACK.length]!) && next < FALLBACK.length) next++;
    const c = FALLBACK[next++ % FALLBACK.length]!;
    used.add(c);
    return c;
  });
}
