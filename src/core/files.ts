// Reading the files users give (data, templates, traces, rubrics), with errors that name the
// file and line.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from './errors.js';
import { parseJsonText } from './json-text.js';

/** The bytes of a file, with errors that name it (missing, a directory, unreadable). */
export function readBytes(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory, expected a file'
          : `cannot read (${code ?? (err as Error).message})`,
      path,
    );
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A text file as UTF-8: a byte-order mark is dropped; bytes that are not UTF-8 are an error
 * naming the line (never replacement characters entering the data); an empty file is an error
 * unless `allowEmpty`.
 */
export function decodeUtf8(bytes: Uint8Array, path: string, opts: { allowEmpty?: boolean } = {}): string {
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    // Find the first line that does not decode, to name it.
    let start = 0;
    for (let line = 1; start <= body.length; line++) {
      let end = body.indexOf(0x0a, start);
      if (end < 0) end = body.length;
      try {
        UTF8.decode(body.subarray(start, end));
      } catch {
        throw new InputError('is not valid UTF-8 text (save it as UTF-8)', path, line);
      }
      start = end + 1;
    }
    throw new InputError('is not valid UTF-8 text (save it as UTF-8)', path);
  }
  if (!opts.allowEmpty && text.trim() === '') throw new InputError('the file is empty', path);
  return text;
}

/** A UTF-8 text file (see decodeUtf8), with errors that name the file and line. */
export function readText(path: string, opts: { allowEmpty?: boolean } = {}): string {
  return decodeUtf8(readBytes(path), path, opts);
}

/** A JSON file; a syntax error, or nesting deeper than MAX_JSON_DEPTH, names the line. */
export function readJson(path: string): unknown {
  return parseJsonText(readText(path), path);
}

/** JSON lines: one object per non-blank line, each with its line number. */
export function readJsonLines(path: string): Array<{ line: number; value: Record<string, unknown> }> {
  const out: Array<{ line: number; value: Record<string, unknown> }> = [];
  readText(path)
    .split('\n')
    .forEach((raw, i) => {
      if (!raw.trim()) return;
      // Python's json module writes NaN for missing values; read it as null.
      const value = parseJsonText(raw.replace(/(?<=[:,[]\s*)NaN(?=\s*[,}\]])/g, 'null'), path, i + 1);
      if (!value || typeof value !== 'object' || Array.isArray(value))
        throw new InputError('expected a JSON object on this line', path, i + 1);
      out.push({ line: i + 1, value: value as Record<string, unknown> });
    });
  return out;
}

/** A file shipped with the mindscope package (data/, rubrics/), found from this module's location in src/ or dist/. */
export function packageFile(...parts: string[]): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, parts[0] ?? ''))) return join(dir, ...parts);
    dir = dirname(dir);
  }
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', ...parts);
}
