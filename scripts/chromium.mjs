// Debian's Chromium driven by playwright-core (Playwright's own browser download cannot work
// here): one launch for the viewer tests, bench/view.mjs and scripts/view-screenshots.mjs.
// MINDSCOPE_CHROMIUM names another executable.

import { chromium } from 'playwright-core';

/** Headless Chromium with no sandbox, GPU, background networking or first-run work. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.MINDSCOPE_CHROMIUM || '/usr/bin/chromium',
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
