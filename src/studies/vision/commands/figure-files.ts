// Writing the vision figures beside each other: each as SVG, and as PNG where ffmpeg is there
// (a warning says when it is not); and the user's lab map for colouring them.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, makeDirectory, readJson } from '../../../core/index.js';
import { FfmpegMissing, svgToPng } from '../../../report/index.js';

/** Write `name.svg` (and `name.png`) for each chart into `dir`. */
export function writeFigures(dir: string, charts: Array<[string, string]>): void {
  makeDirectory(dir);
  for (const [name, svg] of charts) writeFileSync(join(dir, `${name}.svg`), svg);
  // The PNG copies need ffmpeg: without it the SVGs stand, and a warning says what is missing.
  try {
    for (const [name, svg] of charts) writeFileSync(join(dir, `${name}.png`), svgToPng(svg));
  } catch (err) {
    if (!(err instanceof FfmpegMissing)) throw err;
    process.stderr.write(`warning: the charts are written as SVG only: ${err.message}\n`);
  }
}

/** The lab map of `--labs FILE`: a JSON object of model spec or provider prefix -> lab. */
export function readLabs(file: string | undefined): Record<string, string> | undefined {
  if (!file) return undefined;
  const json = readJson(file);
  if (!json || typeof json !== 'object' || Array.isArray(json))
    throw new InputError('expected a JSON object of model spec (or provider) -> lab', file);
  for (const [k, v] of Object.entries(json))
    if (typeof v !== 'string' || !v.trim()) throw new InputError(`"${k}": the lab must be a non-empty string`, file);
  return json as Record<string, string>;
}
