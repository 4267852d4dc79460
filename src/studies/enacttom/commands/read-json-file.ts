// The study's commands read task, seed and label files the same way: JSON, not nested past the
// project's depth limit, with an error that names the file.

import { readFileSync } from 'node:fs';
import { checkJsonDepth, InputError } from '../../../core/index.js';

/** A JSON file, or an InputError naming it ("cannot read as JSON: ..."). */
export function readJsonFile(file: string): unknown {
  let text = '';
  let json: unknown;
  try {
    text = readFileSync(file, 'utf8');
    json = JSON.parse(text);
  } catch (err) {
    throw new InputError(`cannot read as JSON: ${(err as Error).message}`, file);
  }
  checkJsonDepth(text, file);
  return json;
}
