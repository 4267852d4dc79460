#!/usr/bin/env node
// The CLI entry: runs the compiled code (npm ci builds it through the prepare script).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js');
if (!existsSync(dist)) {
  process.stderr.write('mindscope: dist/ is missing; run "npm run build" (npm ci does it for you)\n');
  process.exit(1);
}
const { main } = await import(dist);
await main();
