// Every test process (and the CLI processes the tests start) gets a private data cache and a
// data mirror at a closed local port: no test fetches anything from outside 127.0.0.1, even by
// accident, and none reads or fills the user's cache.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.MINDSCOPE_CACHE ??= mkdtempSync(join(tmpdir(), 'mindscope-test-cache-'));
process.env.MINDSCOPE_DATA_MIRROR ??= 'http://127.0.0.1:9';

// The seed studies are the default plugins of every registry once the `mindscope` entry point is
// loaded; tests that import a layer's entry directly get them too.
await import('../src/index.js');
