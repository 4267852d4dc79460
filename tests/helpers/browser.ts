// The viewer tests' browser (scripts/chromium.mjs: Debian's Chromium through playwright-core).
// Screenshots go to test-artifacts/ (gitignored), kept after the tests.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export { launchChromium } from '../../scripts/chromium.mjs';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');

/** Where a screenshot is kept. */
export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
