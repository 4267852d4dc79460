// Parsing of numeric option values, shared by several commands; each error names the flag. In a
// file of its own, on core's light errors entry (mindscope/errors), so that a command can use it
// without loading all of core.

import { ConfigError } from '../core/errors.js';

/** A parser for an integer flag between `min` and `max` (commander's option argument parser); the error names the flag. */
export function intOption(flag: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = /^\s*[-+]?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `between ${min} and ${max}`;
    if (!Number.isSafeInteger(n) || n < min || n > max) throw new ConfigError(`${flag} expects an integer ${range}, got "${value}"`);
    return n;
  };
}

/** A parser for a decimal flag between `min` and `max`; the error names the flag. */
export function numberOption(flag: string, min = 0, max = Number.POSITIVE_INFINITY) {
  return (value: string): number => {
    // Number('') is 0 and Number(' 1 ') is 1: only a plain decimal literal is taken.
    const n = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(value) ? Number(value) : Number.NaN;
    const range = max === Number.POSITIVE_INFINITY ? `of at least ${min}` : `between ${min} and ${max}`;
    if (!Number.isFinite(n) || n < min || n > max) throw new ConfigError(`${flag} expects a number ${range}, got "${value}"`);
    return n;
  };
}

/** A flag that takes one of a few words; the error names the flag and the words. */
export function choiceOption<T extends string>(flag: string, choices: readonly T[]) {
  return (value: string): T => {
    if (!(choices as readonly string[]).includes(value))
      throw new ConfigError(`${flag} expects one of ${choices.join(', ')}, got "${value}"`);
    return value as T;
  };
}

/** A run id given for a new run: some text, without control characters or spaces at its ends (an empty id named no run). */
export function runIdOption(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (value.trim() === '' || value.trim() !== value || /[\u0000-\u001f\u007f]/.test(value) || value.length > 200)
    throw new ConfigError(
      `--run-id expects an id of 1 to 200 characters, no control characters or spaces at its ends, got ${JSON.stringify(value)}`,
    );
  return value;
}
