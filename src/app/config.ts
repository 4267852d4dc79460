// Config files: a whole study in one file (`mindscope run --config FILE`). The suites, models
// and settings of a run specification; operational defaults (database, concurrency, time
// limit); the judge panel for `mindscope score`; and plugins that register suites, protocols,
// providers and scorers. YAML, JSON, or a JS/TS module whose default export is the config
// (`defineConfig({...})`). Paths inside it are relative to the file.

import { existsSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';
import { z } from 'zod';
import { checkJsonDepth, ConfigError, readText, RunSpecSchema, type RunSpecInput } from '../core/index.js';
import { importModule } from './module-import.js';
import type { Plugin } from './plugin.js';
import { isBuiltinTemplate } from '../protocols/index.js';
import { MAX_CALL_TIMEOUT_MS } from '../models/index.js';

const ConfigSchema = RunSpecSchema.partial().extend({
  /** Store file (default mindscope.db). */
  db: z.string().optional(),
  /** Concurrent calls per provider endpoint. */
  concurrency: z.number().int().positive().optional(),
  /** Time limit per model call, in seconds. */
  timeout: z
    .number()
    .positive()
    .max(MAX_CALL_TIMEOUT_MS / 1000)
    .optional(),
  /** How long one call may keep retrying rate limits (429s), in seconds (--max-wait). */
  maxWait: z.number().nonnegative().optional(),
  /** Stop an endpoint's subjects after this many timeouts in a row; 0: never (--max-consecutive-timeouts). */
  maxConsecutiveTimeouts: z.number().int().nonnegative().optional(),
  /** Largest reply accepted, in bytes (--max-reply-bytes). */
  maxReplyBytes: z.number().int().positive().optional(),
  /** Price table file merged over the built-in one. */
  prices: z.string().optional(),
  /** Environment variable with the key for openai-compatible servers. */
  apiKeyEnv: z.string().optional(),
  /** The judge panel `mindscope score --config` uses. */
  judges: z
    .strictObject({
      rubric: z.string(),
      models: z.array(z.string()).min(1),
      aggregation: z.enum(['median', 'mean', 'majority']).optional(),
    })
    .optional(),
  /** Modules (paths relative to the config file) whose default export is a plugin (definePlugin). */
  plugins: z.array(z.string()).optional(),
});
export type ConfigInput = z.input<typeof ConfigSchema>;

/** Type a config written as a JS/TS module: `export default defineConfig({ suites: [...], models: [...] })`. */
export function defineConfig(config: ConfigInput): ConfigInput {
  return config;
}

export interface LoadedConfig {
  file: string;
  /** The run specification's fields the file sets (the CLI may add to them). */
  spec: Partial<RunSpecInput>;
  db?: string;
  concurrency?: number;
  timeoutMs?: number;
  /** The call limits the file sets (the CLI's flags win): rate-limit wait, hung servers, reply size. */
  callLimits: { maxWaitMs?: number; maxConsecutiveTimeouts?: number; maxReplyBytes?: number };
  prices?: string;
  apiKeyEnv?: string;
  judges?: { rubric: string; models: string[]; aggregation?: 'median' | 'mean' | 'majority' };
  plugins: Plugin[];
}

function isPlugin(x: unknown): x is Plugin {
  return typeof x === 'object' && x !== null && typeof (x as { name?: unknown }).name === 'string';
}

async function loadPlugin(path: string, configFile: string): Promise<Plugin> {
  if (!existsSync(path)) throw new ConfigError(`${configFile}: plugin ${path} does not exist`);
  let mod: Record<string, unknown>;
  try {
    mod = await importModule(path);
  } catch (err) {
    throw new ConfigError(`${path}: cannot load the plugin: ${(err as Error).message}`);
  }
  const plugin = mod.default ?? mod.plugin;
  if (!isPlugin(plugin))
    throw new ConfigError(`${path}: the plugin module must export a plugin (definePlugin({ name, ... })) as default or as "plugin"`);
  return plugin;
}

/** `:LINE` of the first stack frame in `path` (a throw in a config module), or ''. */
function lineInStack(err: unknown, path: string): string {
  const stack = String((err as Error)?.stack ?? '');
  const url = pathToFileURL(path).href;
  for (const frame of stack.split('\n')) {
    const at = frame.indexOf(url);
    const m = at >= 0 ? /^:(\d+):\d+/.exec(frame.slice(at + url.length)) : null;
    if (m) return `:${m[1]}`;
  }
  return '';
}

/** Read, validate and resolve a config file; errors name the file and the field. */
export async function loadConfig(file: string): Promise<LoadedConfig> {
  const path = resolve(file);
  const ext = extname(path).toLowerCase();
  let raw: unknown;
  if (ext === '.yaml' || ext === '.yml' || ext === '.json') {
    const text = readText(path);
    try {
      raw = ext === '.json' ? JSON.parse(text) : YAML.parse(text);
    } catch (err) {
      throw new ConfigError(`${path}: does not parse: ${(err as Error).message}`);
    }
    if (ext === '.json') checkJsonDepth(text, path);
  } else if (['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'].includes(ext)) {
    if (!existsSync(path)) throw new ConfigError(`${path}: no such file`);
    let mod: Record<string, unknown>;
    try {
      mod = await importModule(path);
    } catch (err) {
      // A syntax error or a throw while the module runs: name the file (and the line, where the stack gives it).
      throw new ConfigError(`${path}${lineInStack(err, path)}: cannot load the config: ${(err as Error)?.message ?? String(err)}`);
    }
    raw = mod.default ?? mod.config;
  } else {
    throw new ConfigError(`${path}: a config file is .yaml, .yml, .json, .js, .mjs or .ts`);
  }
  const parsed = ConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    throw new ConfigError(`${path}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  const c = parsed.data;
  const base = dirname(path);
  const at = (p: string | undefined) => (p === undefined ? undefined : isAbsolute(p) ? p : resolve(base, p));
  // A built-in template's name stays a name unless a file of that name sits next to the config.
  const atTemplate = (p: string | undefined) => (p && isBuiltinTemplate(p) && !existsSync(resolve(base, p)) ? p : at(p));
  const { db, concurrency, timeout, maxWait, maxConsecutiveTimeouts, maxReplyBytes, prices, apiKeyEnv, judges, plugins, ...spec } = c;
  const resolvedSpec: Partial<RunSpecInput> = {
    ...spec,
    data: at(spec.data),
    template: atTemplate(spec.template),
    traces: at(spec.traces),
    suites: spec.suites?.map((s) => (typeof s === 'string' ? s : { ...s, data: at(s.data), template: atTemplate(s.template) })),
    irt: spec.irt
      ? spec.irt.mode === 'tiny'
        ? { ...spec.irt, bank: at(spec.irt.bank)!, ...(spec.irt.matrix ? { matrix: spec.irt.matrix.map((m) => at(m)!) } : {}) }
        : { ...spec.irt, bank: at(spec.irt.bank)! }
      : undefined,
  };
  for (const k of Object.keys(resolvedSpec) as Array<keyof RunSpecInput>) if (resolvedSpec[k] === undefined) delete resolvedSpec[k];
  return {
    file: path,
    spec: resolvedSpec,
    db: at(db),
    concurrency,
    timeoutMs: timeout === undefined ? undefined : timeout * 1000,
    callLimits: { maxWaitMs: maxWait === undefined ? undefined : maxWait * 1000, maxConsecutiveTimeouts, maxReplyBytes },
    prices: at(prices),
    apiKeyEnv,
    judges: judges ? { ...judges, rubric: at(judges.rubric) ?? judges.rubric } : undefined,
    plugins: await Promise.all((plugins ?? []).map((p) => loadPlugin(at(p) ?? p, path))),
  };
}
