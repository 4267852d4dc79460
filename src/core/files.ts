// Reading the files users give (data, templates, traces, rubrics), with errors that name the
// file and line.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from './errors.js';

export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
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

export function readJson(path: string): unknown {
  const text = readText(path);
  try {
    return JSON.parse(text);
  } catch (err) {
    const m = /position (\d+)/.exec((err as Error).message);
    const line = m ? text.slice(0, Number(m[1])).split('\n').length : undefined;
    throw new InputError(`malformed JSON: ${(err as Error).message}`, path, line);
  }
}

/** JSON lines: one object per non-blank line, each with its line number. */
export function readJsonLines(path: string): Array<{ line: number; value: Record<string, unknown> }> {
  const out: Array<{ line: number; value: Record<string, unknown> }> = [];
  readText(path)
    .split('\n')
    .forEach((raw, i) => {
      if (!raw.trim()) return;
      let value: unknown;
      try {
        // Python's json module writes NaN for missing values; read it as null.
        value = JSON.parse(raw.replace(/(?<=[:,[]\s*)NaN(?=\s*[,}\]])/g, 'null'));
      } catch (err) {
        throw new InputError(`malformed JSON line: ${(err as Error).message}`, path, i + 1);
      }
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
