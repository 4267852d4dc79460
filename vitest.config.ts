import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    setupFiles: ['tests/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The llama.cpp and CLI tests start processes of their own; two cores are all there is.
    maxWorkers: 2,
  },
});
