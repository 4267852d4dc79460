// mindscope's own version, read once from its package.json (the CLI's --version, the viewer's
// header, the provenance of item banks).

import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** mindscope's version from its package.json ('unknown' when it cannot be read). */
export function mindscopeVersion(): string {
  if (cached) return cached;
  try {
    // src/core/ and dist/core/ both sit two levels below the package root.
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    cached = typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    cached = 'unknown';
  }
  return cached;
}
