// Debian's Chromium driven by playwright-core (Playwright's own browser download cannot work
// here). Screenshots go to test-artifacts/ (gitignored), kept after the tests.

import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = process.env.MINDSCOPE_CHROMIUM || '/usr/bin/chromium';
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Where a screenshot is kept. */
export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
