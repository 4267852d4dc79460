// Where the full shared data lives: MINDSCOPE_SHARED, the folder holding data/ (and models/,
// vectors/). `npm run test:shared` sets it to ../shared unless it is set already. Without it
// every full-data check is skipped, and this says why once per test file.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const given = process.env.MINDSCOPE_SHARED ? resolve(process.env.MINDSCOPE_SHARED) : undefined;

/** The shared folder, or undefined when MINDSCOPE_SHARED is unset or has no data/ folder. */
export const SHARED = given && existsSync(join(given, 'data')) ? given : undefined;

/** The full public datasets (a path that does not exist when SHARED is absent; the tests skip then). */
export const SHARED_DATA = join(SHARED ?? '/nonexistent-mindscope-shared', 'data');

if (!SHARED) {
  console.warn(
    `tests-shared: SKIPPED, the full-data checks need the shared data: ${
      given ? `${join(given, 'data')} does not exist` : 'MINDSCOPE_SHARED is not set'
    } (run MINDSCOPE_SHARED=/path/to/shared npm run test:shared)`,
  );
}
