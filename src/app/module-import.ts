// Importing the JS and TS modules a config names (the config itself, its plugins). A module
// whose top-level await never settles leaves Node nothing to run: Node would end the process
// with exit code 13 and no word about the module. So the import races the moment the event loop
// runs dry ('beforeExit'), which comes only when nothing is left that could settle it.

import { pathToFileURL } from 'node:url';
import { ConfigError } from '../core/index.js';

async function load(path: string): Promise<Record<string, unknown>> {
  if (/\.[cm]?ts$/.test(path)) {
    // TS through jiti, which needs no build step.
    const { createJiti } = await import('jiti');
    return (await createJiti(import.meta.url, { moduleCache: false }).import(path)) as Record<string, unknown>;
  }
  return (await import(pathToFileURL(path).href)) as Record<string, unknown>;
}

/** Import a JS or TS module; a top-level await that can never settle is a ConfigError, not a silent exit. */
export async function importModule(path: string): Promise<Record<string, unknown>> {
  let ranDry: (() => void) | undefined;
  const stuck = new Promise<never>((_, reject) => {
    ranDry = () =>
      reject(new ConfigError('its top-level await never settles (it waits on a promise that nothing left running can resolve)'));
    process.once('beforeExit', ranDry);
  });
  try {
    return await Promise.race([load(path), stuck]);
  } finally {
    if (ranDry) process.off('beforeExit', ranDry);
  }
}
