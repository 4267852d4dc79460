#!/usr/bin/env node
// The CLI entry: runs the compiled code (npm ci builds it through the prepare script).
import { existsSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'cli', 'main.js');
if (!existsSync(dist)) {
  process.stderr.write('mindscope: dist/ is missing; run "npm run build" (npm ci does it for you)\n');
  process.exit(1);
}
// Node keeps the compiled code of the modules a command loads on disk (in the system's temporary
// folder) and reuses it on the next run: each command starts in less CPU time. Set
// NODE_DISABLE_COMPILE_CACHE=1 to turn it off.
enableCompileCache?.();
// zod's locales are loaded when first used, not with every schema (lazy-zod-locales.ts).
const { registerLazyZodLocales } = await import(join(dirname(dist), 'lazy-zod-locales.js'));
registerLazyZodLocales();
const { main } = await import(dist);
await main();
