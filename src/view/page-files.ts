// The built page (Vite's output, dist/view-ui/), found from the package root, a reader of its
// files that stays inside that folder, and the version the package.json there gives.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MindscopeError } from '../core/index.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** The MIME type of a file by its extension. */
function contentType(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** The package root: the first folder above this module with a package.json. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return dir;
}

/** The folder holding the built page: dist/view-ui under the package root. */
export function pageFolder(): string {
  const folder = join(packageRoot(), 'dist', 'view-ui');
  if (!existsSync(join(folder, 'index.html')))
    throw new MindscopeError(`${folder}: the viewer's page is not built; run "npm run build" (npm ci does it for you)`);
  return folder;
}

/** A file of a folder by its URL path, or undefined (never a file outside the folder). */
export function readInside(folder: string, urlPath: string): { body: Buffer; type: string } | undefined {
  const rel = normalize(decodeURIComponent(urlPath)).replace(/^([/\\])+/, '');
  const path = join(folder, rel || 'index.html');
  if (!path.startsWith(folder + sep) && path !== folder) return undefined;
  try {
    return { body: readFileSync(path), type: contentType(path) };
  } catch {
    return undefined;
  }
}
