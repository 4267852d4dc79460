// JSON text that users give (data files, configs, traces, labels, banks), parsed with errors
// that name the file and line. JSON.parse itself reads any depth, but what walks the value
// afterwards (String(), JSON.stringify, hashing, schema checks) recurses, and a value nested
// 100,000 deep would end the command with "Maximum call stack size exceeded", naming nothing.
// No data needs more than a few dozen levels: deeper values are refused where they go too deep.

import { InputError } from './errors.js';

/** How deep lists and objects may nest in JSON that users give. */
export const MAX_JSON_DEPTH = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_LIST = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_LIST = 0x5d;
const CLOSE_OBJECT = 0x7d;

/** The offset at which valid JSON text (JSON.parse read it) first nests deeper than `max`, or -1. */
function tooDeepAt(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string: find its closing quote (one not escaped by an odd run of backslashes).
      let end = text.indexOf('"', i + 1);
      for (;;) {
        if (end < 0) return -1; // unterminated: not JSON.parse's output, nothing to measure
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes++;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      i = end;
    } else if (c === OPEN_LIST || c === OPEN_OBJECT) {
      if (++depth > max) return i;
    } else if (c === CLOSE_LIST || c === CLOSE_OBJECT) depth--;
  }
  return -1;
}

/** Line (1-based) and column (1-based) of an offset of a text. */
function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * Refuse JSON text that JSON.parse read if its lists and objects nest deeper than
 * MAX_JSON_DEPTH: an InputError naming `file` and the line (`line`: the line the text starts
 * on, for a JSON line).
 */
export function checkJsonDepth(text: string, file: string, line?: number): void {
  const deep = tooDeepAt(text, MAX_JSON_DEPTH);
  if (deep < 0) return;
  const where = lineColumnAt(text, deep);
  throw new InputError(
    `lists and objects nest more than ${MAX_JSON_DEPTH} levels deep (at column ${where.column}); no data needs that depth, so the file is not read`,
    file,
    (line ?? 1) + where.line - 1,
  );
}

/**
 * Parse JSON text that `file` holds (`line`: the line the text starts on, for a JSON line).
 * A syntax error, or lists and objects nested deeper than MAX_JSON_DEPTH, is an InputError
 * naming the file and line.
 */
export function parseJsonText(text: string, file: string, line?: number): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const m = /position (\d+)/.exec((err as Error).message);
    const at = m ? lineColumnAt(text, Number(m[1])).line - 1 : undefined;
    throw new InputError(
      `malformed JSON${line === undefined ? '' : ' line'}: ${(err as Error).message}`,
      file,
      at === undefined ? line : (line ?? 1) + at,
    );
  }
  // Only text that parsed is scanned: its strings are then well formed.
  checkJsonDepth(text, file, line);
  return value;
}
