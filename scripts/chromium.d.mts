import type { Browser } from 'playwright-core';

/** Headless Chromium with no sandbox, GPU, background networking or first-run work. */
export function launchChromium(): Promise<Browser>;
