// What a suite listing shows of the kernel's suites, in a file with no imports so that
// `mindscope suites` prints the list without loading the suites (builtin.ts takes them from here).

/** The kernel's suites as a listing shows them: protocol, description, whether the suite reads data. */
export const KERNEL_SUITE_SUMMARIES = {
  mcq: {
    protocol: 'mcq',
    describe: 'generic MCQ file (JSONL, JSON, CSV, Parquet) with a field mapping; --data FILE',
    needsData: true,
  },
  'generated-tom': {
    protocol: 'mcq',
    describe: 'procedural false-belief, knowledge, perception and 2nd-4th order stories (seeded)',
    needsData: false,
  },
} as const;
