// Creating a folder and its missing parents. Node's own `makeDirectory(p)`
// never returns on a path under /proc or /sys (and on some stale mounts): such a file system
// answers ENOENT for a child that cannot exist, Node takes that as "the parent is missing",
// creates the parent (EEXIST: fine), and tries the child again, forever, at 100% CPU and deaf
// to SIGTERM. Here the parents are created one at a time, and a child still "not found" under a
// parent that exists is an error.

import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { MindscopeError } from './errors.js';

/** Create `path` as a folder, with any missing parents (like `mkdir -p`); an existing folder is fine. */
export function makeDirectory(path: string): void {
  const missing: string[] = [];
  // Paths as given (relative ones stay relative), so that errors name what the user typed.
  let p = path;
  // Walk up to the nearest thing that exists.
  for (;;) {
    try {
      statSync(p);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        // ENOTDIR (a file on the way) and the like: mkdir's own error says it, as a mkdir.
        mkdirSync(p);
        break;
      }
      const parent = dirname(p);
      missing.push(p);
      if (parent === p) break;
      p = parent;
    }
  }
  // Then down again, one folder at a time: an error (ENOENT under /proc, ENOTDIR under a file) is final.
  for (let i = missing.length - 1; i >= 0; i--) {
    try {
      mkdirSync(missing[i]!);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      // The parent exists (it was there, or was just made): "not found" means this file system takes no folder here.
      if (code === 'ENOENT')
        throw new MindscopeError(`cannot create the folder ${missing[i]}: ${dirname(missing[i]!)} takes no new folders (ENOENT)`);
      throw err;
    }
  }
  // The path itself must be a folder (mkdir -p fails on a file of that name too).
  if (missing.length === 0 && !statSync(p).isDirectory()) {
    throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${p}'`), { code: 'EEXIST', syscall: 'mkdir', path: p });
  }
}
