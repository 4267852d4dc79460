// The images a StoryTurn file names. A local path must stay inside the folder of the data file
// (no `..`, no absolute path elsewhere, no symbolic link out of it) and hold a real image (PNG,
// JPEG, GIF or WebP by its magic bytes): anything else would be read and sent to a model, then
// stored. `data:` URIs must hold such an image too; http(s) URLs are passed on as they are.

import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { imageMediaType, InputError } from '../../core/index.js';

function outside(base: string, path: string): boolean {
  const rel = relative(base, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel);
}

function head(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const buf = new Uint8Array(16);
    const n = readSync(fd, buf, 0, 16, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * Check one image reference of a StoryTurn (`field` names where it was given) and return what
 * the story keeps: the absolute path inside `base`, or the URI unchanged.
 */
export function checkedImage(ref: string, base: string, field: string, file: string, line?: number): string {
  if (/^https?:\/\//i.test(ref)) return ref;
  if (ref.startsWith('data:')) {
    const m = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(ref);
    const bytes = m?.[2] ? Buffer.from(m[3]!.slice(0, 64), 'base64') : new Uint8Array();
    if (!imageMediaType(bytes)) throw new InputError(`${field}: the data: URI is not a base64 PNG, JPEG, GIF or WebP image`, file, line);
    return ref;
  }
  const root = realpathSync(base);
  const path = resolve(base, ref);
  if (isAbsolute(ref) || outside(resolve(base), path))
    throw new InputError(`${field}: the image "${ref}" is outside the data folder ${root}; give a path inside it`, file, line);
  let real: string;
  let bytes: Uint8Array;
  try {
    real = realpathSync(path);
    bytes = head(real);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputError(
      `${field}: cannot read the image "${ref}" (${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder' : code})`,
      file,
      line,
    );
  }
  if (outside(root, real)) throw new InputError(`${field}: the image "${ref}" links outside the data folder ${root}`, file, line);
  if (!imageMediaType(bytes))
    throw new InputError(`${field}: "${ref}" is not a PNG, JPEG, GIF or WebP image (by its first bytes)`, file, line);
  return path;
}
