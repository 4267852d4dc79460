// Options the item-writing commands share: --prompt NAME=FILE (a prompt file in place of a
// registered one) and the writer's model, store, retries and temperature.

import type { Command } from 'commander';
import { ConfigError } from '../../../core/index.js';
import { DEFAULT_DB, intOption, numberOption } from '../../../cli/toolkit.js';
import type { PaperWriterOptions, WritingPromptName } from '../app/paper-writer.js';
import { writingPrompts } from '../manifest.js';

export interface WritingFlags {
  model: string;
  db: string;
  apiKeyEnv?: string;
  retries: number;
  temperature: number;
  prompt?: string[];
}

/** Add the writer's options to a command. */
export function writingOptions(cmd: Command, names: readonly WritingPromptName[]): Command {
  return cmd
    .requiredOption('--model <spec>', 'the writing model (any provider; calls are cached in --db)')
    .option('--db <path>', 'store, a SQLite file or postgres:// URL (call cache)', DEFAULT_DB)
    .option('--api-key-env <name>', 'environment variable with the key for an openai-compatible model')
    .option(
      '--retries <n>',
      'ask again this many times when a reply does not read (saying what is wrong)',
      intOption('--retries', 0, 10),
      2,
    )
    .option('--temperature <t>', 'sampling temperature of the writer', numberOption('--temperature', 0, 2), 0)
    .option('--prompt <name=file...>', `a prompt file in place of a registered one (${names.join(', ')})`);
}

/** The writer's options from the flags; a --prompt name that is not one of `names` is refused. */
export function writerOptions(f: WritingFlags, names: readonly WritingPromptName[]): Omit<PaperWriterOptions, 'store'> {
  const prompts: PaperWriterOptions['prompts'] = {};
  for (const p of f.prompt ?? []) {
    const [name, file] = [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)];
    if (!p.includes('=') || !file || !(names as readonly string[]).includes(name))
      throw new ConfigError(`--prompt expects NAME=FILE with NAME one of ${names.join(', ')}, got "${p}"`);
    prompts[name as WritingPromptName] = file;
  }
  return { model: f.model, apiKeyEnv: f.apiKeyEnv, retries: f.retries, temperature: f.temperature, prompts };
}

/** Every writing prompt's name. */
export const ALL_PROMPTS = Object.keys(writingPrompts) as WritingPromptName[];
