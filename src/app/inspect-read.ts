// Reading Inspect AI eval logs from disk: `.json` logs (the whole log in one JSON document) and
// `.eval` logs (a zip of header.json and one samples/<id>_epoch_<n>.json per sample, read with
// fflate). Every log is checked against the schemas in inspect-log-schema.ts; a log that does not
// fit is an InputError naming the file and the field (e.g. samples[3].scores).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { unzipSync } from 'fflate';
import type { z } from 'zod';
import { checkJsonDepth, InputError } from '../core/index.js';
import { type InspectEvalLog, InspectEvalLogSchema, InspectSampleSchema, issuePath } from './inspect-log-schema.js';

/** A log read from a file, its samples checked; `where(i)` names sample i in errors. */
export interface InspectLogFile {
  file: string;
  /** The file's bytes (their hash is the import's identity). */
  bytes: Uint8Array;
  log: InspectEvalLog;
  samples: NonNullable<InspectEvalLog['samples']>;
  where: (i: number) => string;
}

function check<T extends z.ZodType>(schema: T, value: unknown, file: string, prefix = ''): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issuePath(issue?.path ?? []);
  const field = prefix ? `${prefix} ${path || '(root)'}` : path;
  throw new InputError(`not an Inspect eval log: ${field || '(root)'}: ${issue?.message ?? 'invalid'}`, file);
}

function parseJson(text: string, file: string, entry?: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${entry ? `${entry}: ` : ''}not JSON: ${(err as Error).message}`, file);
  }
  checkJsonDepth(text, entry ? `${file} (${entry})` : file);
  return value;
}

function readJsonLog(file: string, bytes: Uint8Array): InspectLogFile {
  const log = check(InspectEvalLogSchema, parseJson(Buffer.from(bytes).toString('utf8'), file), file);
  if (!log.samples?.length) throw new InputError('the log holds no samples (was it written with log_samples=False?)', file);
  return { file, bytes, log, samples: log.samples, where: (i) => `samples[${i}]` };
}

function readEvalZip(file: string, bytes: Uint8Array): InspectLogFile {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (f) => f.name === 'header.json' || (f.name.startsWith('samples/') && f.name.endsWith('.json')) });
  } catch (err) {
    throw new InputError(
      `not a readable .eval (zip) log: ${(err as Error).message}; convert it with \`inspect log convert --to json\` and import the .json`,
      file,
    );
  }
  const text = (name: string) => Buffer.from(entries[name]!).toString('utf8');
  if (!entries['header.json']) throw new InputError('no header.json in the .eval archive', file);
  const log = check(InspectEvalLogSchema, parseJson(text('header.json'), file, 'header.json'), file, 'header.json:');
  const names = Object.keys(entries)
    .filter((n) => n.startsWith('samples/'))
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  if (names.length === 0) throw new InputError('the .eval archive holds no samples/', file);
  const samples = names.map((n) => check(InspectSampleSchema, parseJson(text(n), file, n), file, `${n}:`));
  return { file, bytes, log, samples, where: (i) => names[i]! };
}

/** A file's bytes; an unreadable file is an InputError naming it. */
export function readBytes(file: string): Uint8Array {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new InputError(`cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, file);
  }
}

/** Read one log file (.json or .eval). */
export function readInspectLog(file: string): InspectLogFile {
  const bytes = readBytes(file);
  const ext = extname(file).toLowerCase();
  if (ext === '.json') return readJsonLog(file, bytes);
  if (ext === '.eval') return readEvalZip(file, bytes);
  throw new InputError('an Inspect log ends in .json or .eval', file);
}

/** The log files a path names: the file itself, or the .json and .eval files in a directory (recursively, sorted). */
export function inspectLogFiles(path: string): string[] {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (err) {
    throw new InputError(`cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, path);
  }
  if (!isDir) return [path];
  const out: string[] = [];
  for (const e of readdirSync(path, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = join(path, e.name);
    if (e.isDirectory()) out.push(...inspectLogFiles(p));
    // Inspect's listing files (logs.json, listing.json) are not logs.
    else if (/\.(json|eval)$/i.test(e.name) && !['logs.json', 'listing.json'].includes(e.name)) out.push(p);
  }
  if (out.length === 0) throw new InputError('no .json or .eval logs in this directory', path);
  return out;
}
