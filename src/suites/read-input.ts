// Reading suite files with errors that name the file and line.

import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InputError } from '../core/index.js';
import type { Category, Item, McqPayload } from '../core/index.js';

export interface LoadResult<P = McqPayload> {
  items: Item<P>[];
  /** Problems that were repaired or items that were left out, each naming its file and line. */
  warnings: string[];
}

/** A required string field (non-empty after trimming). */
export function field(obj: Record<string, unknown>, name: string, file: string, line?: number): string {
  const v = obj[name];
  if (v === undefined || v === null) throw new InputError(`missing field "${name}"`, file, line);
  if (typeof v !== 'string' && typeof v !== 'number') throw new InputError(`field "${name}" must be text`, file, line);
  const s = String(v);
  if (!s.trim()) throw new InputError(`field "${name}" is empty`, file, line);
  return s;
}

/** A directory of suite data: `root/<folder>` when it exists, else `root` itself. */
export function resolveDataDir(root: string, folder: string): string {
  const nested = join(root, folder);
  if (existsSync(nested) && statSync(nested).isDirectory()) return nested;
  if (!existsSync(root)) throw new InputError('no such file or directory (give the data folder with --data)', root);
  return root;
}

/**
 * The files of a folder matching a pattern, sorted; an error naming the folder and `expected`
 * (the files' form in words, e.g. "*.jsonl") when there are none.
 */
export function listFiles(dir: string, pattern: RegExp, expected: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new InputError(`cannot list the directory (${(err as NodeJS.ErrnoException).code})`, dir);
  }
  const files = names.filter((n) => pattern.test(n)).sort();
  if (files.length === 0) throw new InputError(`no data files here: expected ${expected}`, dir);
  return files.map((n) => join(dir, n));
}

/** Build an MCQ item, checking that the answer is one of the options. */
export function mcqItem(args: {
  suite: string;
  id: string;
  category: Category;
  ability?: string;
  context: string;
  question: string;
  options: string[];
  answerIndex: number;
  meta: Record<string, unknown>;
  file: string;
  line?: number;
  /** Keep items whose options repeat a text (a source defect the loader reports). */
  allowDuplicateOptions?: boolean;
}): Item<McqPayload> {
  const { options, answerIndex } = args;
  if (options.length < 2)
    throw new InputError(`item ${args.id} has ${options.length} option(s); at least 2 are needed`, args.file, args.line);
  if (!(answerIndex >= 0 && answerIndex < options.length))
    throw new InputError(`item ${args.id}: the answer is not among the options`, args.file, args.line);
  if (!args.allowDuplicateOptions && new Set(options).size !== options.length)
    throw new InputError(`item ${args.id}: two options have the same text`, args.file, args.line);
  return {
    suite: args.suite,
    id: args.id,
    category: args.category,
    ability: args.ability,
    payload: { context: args.context, question: args.question, options, answerIndex },
    answer: options[answerIndex]!,
    // Only the file's base name: the item's content hash must not depend on where the data lives.
    meta: { ...args.meta, source: { file: basename(args.file), line: args.line } },
  };
}
