// Writing StoryTurns back to a file the loader reads (storyturn-loader.ts): JSON Lines for
// `.jsonl`/`.ndjson` (one story a line), a JSON list for `.json`. A local image is written as
// the path of its file relative to the folder of the file written (with `/`), so the file stays
// readable wherever the folder is moved; an image that would lie outside that folder is refused
// (the loader reads images only inside it). Images held as data: or http(s) URIs are written as
// they are. The file is replaced whole (written beside it, then renamed), never left half written.

import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { ConfigError, describeFileError } from '../../../core/index.js';
import type { StoryTurnStory } from '../protocol/storyturn.js';

/** The formats a StoryTurn file is written in, by extension. */
const WRITTEN: Record<string, 'json' | 'jsonl'> = { '.json': 'json', '.jsonl': 'jsonl', '.ndjson': 'jsonl' };

/** The format a StoryTurn file is written in, from its extension; other extensions are refused with the reason. */
export function storyFileFormat(file: string): 'json' | 'jsonl' {
  const ext = extname(file).toLowerCase();
  const format = WRITTEN[ext];
  if (!format)
    throw new ConfigError(
      `${file}: StoryTurns are written as JSON (.json) or JSON Lines (.jsonl), not "${ext || 'no extension'}"; a CSV or Parquet table is read only (give --out FILE.json or FILE.jsonl)`,
    );
  return format;
}

/** The story's images as `file` gives them: local files by their path relative to its folder. */
function imageRefs(s: StoryTurnStory, file: string): Record<string, string> {
  const folder = resolve(dirname(file));
  const from = resolve(dirname(s.source && s.source !== 'model' ? s.source : file));
  const out: Record<string, string> = {};
  for (const [id, value] of Object.entries(s.images)) {
    const path = s.imageFiles?.[id];
    if (!path) {
      out[id] = value;
      continue;
    }
    const where = resolve(from, path);
    const rel = relative(folder, where);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
      throw new ConfigError(
        `${file}: the image "${id}" of StoryTurn "${s.id}" lies at ${where}, outside the folder of ${file} (the loader reads images only inside it); write the file in a folder that holds its images`,
      );
    out[id] = rel.split(sep).join('/');
  }
  return out;
}

/** A story as one record of a StoryTurn file (the loader's field names). */
export function storyRecord(s: StoryTurnStory, file: string): Record<string, unknown> {
  return {
    id: s.id,
    mental_state: s.state,
    setting: s.setting,
    status: s.status,
    ...(s.category ? { category: s.category } : {}),
    ...(s.task ? { task: s.task } : {}),
    turns: s.turns,
    images: imageRefs(s, file),
    ...(s.review?.length ? { review: s.review } : {}),
    ...(s.reviews?.length ? { reviews: s.reviews } : {}),
  };
}

/** Write StoryTurns to `file` in the format its extension names (see the file comment). */
export function saveStoryTurns(file: string, stories: readonly StoryTurnStory[]): void {
  const records = stories.map((s) => storyRecord(s, file));
  const text =
    storyFileFormat(file) === 'jsonl' ? records.map((r) => `${JSON.stringify(r)}\n`).join('') : `${JSON.stringify(records, null, 2)}\n`;
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, file);
  } catch (err) {
    rmSync(temp, { force: true });
    throw describeFileError(err, file);
  }
}
