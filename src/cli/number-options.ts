// Parsing of numeric option values, shared by several commands; each error names the flag. In a
// file of its own, on core's light errors entry (mindscope/errors), so that a command can use it
// without loading all of core.

import { ConfigError } from '../core/errors.js';

export function intOption(flag: string, min = 0) {
  return (value: string): number => {
    const n = /^\s*[-+]?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(n) || n < min) throw new ConfigError(`${flag} expects an integer of at least ${min}, got "${value}"`);
    return n;
  };
}

export function numberOption(flag: string, min = 0, max = Number.POSITIVE_INFINITY) {
  return (value: string): number => {
    // Number('') is 0 and Number(' 1 ') is 1: only a plain decimal literal is taken.
    const n = /^\s*[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?\s*$/i.test(value) ? Number(value) : Number.NaN;
    const range = max === Number.POSITIVE_INFINITY ? `of at least ${min}` : `between ${min} and ${max}`;
    if (!Number.isFinite(n) || n < min || n > max) throw new ConfigError(`${flag} expects a number ${range}, got "${value}"`);
    return n;
  };
}
