import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    setupFiles: ['tests/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The llama.cpp and CLI tests start processes of their own; two cores are all there is.
    maxWorkers: 2,
    // The built CLI that tests/helpers/run-cli.ts calls in process: loaded by Node itself, as
    // bin/mindscope.js loads it, not transformed again module by module.
    server: { deps: { external: [/\/dist\//] } },
  },
});
