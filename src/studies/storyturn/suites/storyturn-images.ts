// The images a StoryTurn file names. A local path must stay inside the folder of the data file
// (no `..`, no absolute path elsewhere, no symbolic link out of it) and hold a real image (PNG,
// JPEG, GIF or WebP by its magic bytes): anything else would be sent to a model, then stored.
// The file is read once, here, and the story keeps its checked bytes as a data: URI: the model
// is sent exactly those bytes (a file swapped afterwards changes nothing), and the item's hash
// covers them (a changed image is a changed item). `data:` URIs must hold such an image too;
// http(s) URLs are passed on as they are.

import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { imageMediaType, InputError } from '../../../core/index.js';

function outside(base: string, path: string): boolean {
  const rel = relative(base, path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel);
}

/** Why a file could not be read, in words. */
function readProblem(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'a folder';
  // O_NOFOLLOW: the file became a symbolic link after its path was checked.
  if (code === 'ELOOP') return 'it became a symbolic link while it was read';
  return code ?? (err as Error).message;
}

/**
 * The bytes of the file at `real` (a resolved path inside `root`), read through one descriptor
 * that follows no link and waits on no pipe; the path must still name that same file once they
 * are read (no folder on the way swapped meanwhile).
 */
function readChecked(path: string, real: string, root: string): Buffer {
  const fd = openSync(real, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  try {
    const opened = fstatSync(fd);
    if (!opened.isFile()) throw new Error(opened.isDirectory() ? 'a folder' : 'not a regular file');
    const bytes = readFileSync(fd);
    const now = realpathSync(path);
    const named = statSync(now);
    if (now !== real || outside(root, now) || named.dev !== opened.dev || named.ino !== opened.ino)
      throw new Error('it changed while it was read');
    return bytes;
  } finally {
    closeSync(fd);
  }
}

/**
 * Check one image reference of a StoryTurn (`field` names where it was given) and return what
 * the story keeps: a local file's checked bytes as a data: URI, or the URI unchanged.
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
  const cannotRead = (err: unknown) => new InputError(`${field}: cannot read the image "${ref}" (${readProblem(err)})`, file, line);
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    throw cannotRead(err);
  }
  if (outside(root, real)) throw new InputError(`${field}: the image "${ref}" links outside the data folder ${root}`, file, line);
  let bytes: Buffer;
  try {
    bytes = readChecked(path, real, root);
  } catch (err) {
    throw cannotRead(err);
  }
  const mediaType = imageMediaType(bytes);
  if (!mediaType) throw new InputError(`${field}: "${ref}" is not a PNG, JPEG, GIF or WebP image (by its first bytes)`, file, line);
  return `data:${mediaType};base64,${bytes.toString('base64')}`;
}
