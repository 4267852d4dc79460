// Files the user names as outputs (--out): an existing one is not replaced unless asked, and a
// failed write says what is wrong with the path instead of a raw errno message.

import { existsSync } from 'node:fs';
import { ConfigError, MindscopeError } from './errors.js';

const WHY: Record<string, string> = {
  ENOENT: 'its folder does not exist',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder; name a file',
  EACCES: 'permission denied',
  EPERM: 'the operation is not permitted (permissions or an immutable file)',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENAMETOOLONG: 'the name is too long',
  EEXIST: 'a file of that name is in the way',
};

/** A file system error as one clear line naming the path; other errors unchanged. */
export function describeFileError(err: unknown, path?: string): unknown {
  const e = err as NodeJS.ErrnoException;
  if (!e || typeof e.code !== 'string' || !(e.code in WHY) || err instanceof MindscopeError) return err;
  const where = e.path ?? path ?? '(unknown path)';
  const action = e.syscall === 'open' || e.syscall === 'write' || e.syscall === 'mkdir' ? `cannot write ${where}` : `${where}`;
  return new MindscopeError(`${action}: ${WHY[e.code]} (${e.code})`);
}

/** Refuse to replace an existing output unless `force` (`--force`). */
export function refuseOverwrite(path: string, force: boolean | undefined, flag = '--out'): void {
  if (!force && existsSync(path)) throw new ConfigError(`${path} exists: refusing to overwrite it (${flag}); add --force to replace it`);
}
