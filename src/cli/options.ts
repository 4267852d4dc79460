import type { Command } from 'commander';
// Parsing of option values shared by several commands; each error names the flag.

import { ConfigError, isCategory, type Category, type McqFieldMap } from '../core/index.js';

// The number parsers, in their own file: `audit` uses them without loading all of core.
import { choiceOption, intOption, numberOption, runIdOption } from './number-options.js';

export { choiceOption, intOption, numberOption, runIdOption };

/** `question=q,options=a0|a1|a2|a3,answer=a_idx,category=cat,context=story,id=qid,category.fb=belief` */
export function parseFieldMap(value: string): McqFieldMap {
  const map: Partial<McqFieldMap> & { categoryMap?: Record<string, Category> } = {};
  for (const pair of value.split(',')) {
    const [key, raw] = pair.split('=');
    if (!key || raw === undefined) throw new ConfigError(`--fields: "${pair}" is not key=value`);
    const k = key.trim();
    if (k.startsWith('category.')) {
      if (!isCategory(raw)) throw new ConfigError(`--fields: ${k} maps to "${raw}", which is not an ATOMS category`);
      (map.categoryMap ??= {})[k.slice('category.'.length)] = raw;
    } else if (k === 'options') map.options = raw.includes('|') ? raw.split('|') : raw;
    else if (k === 'defaultCategory') {
      if (!isCategory(raw)) throw new ConfigError(`--fields: defaultCategory "${raw}" is not an ATOMS category`);
      map.defaultCategory = raw;
    } else if (['id', 'context', 'question', 'answer', 'category', 'subcategory'].includes(k)) (map as Record<string, unknown>)[k] = raw;
    else throw new ConfigError(`--fields: unknown key "${k}"`);
  }
  if (!map.question || !map.options || !map.answer) throw new ConfigError('--fields needs at least question=, options= and answer=');
  return map as McqFieldMap;
}

// The default store, in its own file: `report` names it without loading this one (all of core).
export { DEFAULT_DB } from './default-db.js';

/** The flags that bound what a misbehaving provider can cost a run: rate-limit wait, hung servers, reply size. */
export interface CallLimitFlags {
  maxWait: number;
  maxConsecutiveTimeouts: number;
  maxReplyBytes: number;
}

/** Add --max-wait, --max-consecutive-timeouts and --max-reply-bytes to a command (run, worker). */
export function addCallLimitOptions(command: Command): Command {
  return command
    .option(
      '--max-wait <seconds>',
      'how long one call may keep retrying rate limits (429s); a longer Retry-After stops the subject (resumable)',
      numberOption('--max-wait', 0),
      600,
    )
    .option(
      '--max-consecutive-timeouts <n>',
      'stop the subjects of an endpoint after this many timeouts in a row (a hung server; resumable); 0: never',
      intOption('--max-consecutive-timeouts', 0),
      5,
    )
    .option(
      '--max-reply-bytes <n>',
      'a reply larger than this many bytes fails its trial as oversized (4194304: 4 MiB)',
      intOption('--max-reply-bytes', 1),
      4 * 1024 * 1024,
    );
}

/**
 * The call options those flags give; a flag left at its default yields to the config file's
 * value (`fromConfig`) when the file sets one.
 */
export function callLimits(
  flags: CallLimitFlags,
  cmd?: Command,
  fromConfig: { maxWaitMs?: number; maxConsecutiveTimeouts?: number; maxReplyBytes?: number } = {},
): { maxWaitMs: number; maxConsecutiveTimeouts: number; maxReplyBytes: number } {
  const onCli = (name: string) => cmd?.getOptionValueSource(name) === 'cli';
  return {
    maxWaitMs: !onCli('maxWait') && fromConfig.maxWaitMs !== undefined ? fromConfig.maxWaitMs : flags.maxWait * 1000,
    maxConsecutiveTimeouts:
      !onCli('maxConsecutiveTimeouts') && fromConfig.maxConsecutiveTimeouts !== undefined
        ? fromConfig.maxConsecutiveTimeouts
        : flags.maxConsecutiveTimeouts,
    maxReplyBytes: !onCli('maxReplyBytes') && fromConfig.maxReplyBytes !== undefined ? fromConfig.maxReplyBytes : flags.maxReplyBytes,
  };
}
