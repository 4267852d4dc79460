import { defineConfig } from 'vitest/config';

// The checks on the full public data (published counts, DialToM Table 19, data on demand from a
// local mirror): `npm run test:shared`, with MINDSCOPE_SHARED naming the folder that holds data/.
export default defineConfig({
  test: {
    include: ['tests-shared/**/*.test.ts'],
    setupFiles: ['tests/setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});
