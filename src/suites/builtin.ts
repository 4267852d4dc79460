// The suites of the kernel: a generic multiple-choice file, and procedural ToM stories (the demo's).
// The seed studies add theirs as plugins (src/studies); users add suites with defineSuite.

import { ConfigError } from '../core/index.js';
import { mcqProtocol } from '../protocols/index.js';
import { defineSuite, type Suite } from './suite.js';
import { loadGenericMcq } from './generic-mcq.js';
import { generateTomItems } from './generated/story-generator.js';
import { KERNEL_SUITE_SUMMARIES } from './kernel-summaries.js';

/** The kernel's suites: any MCQ file with a field mapping, and the procedural stories of the demo. */
export const KERNEL_SUITES: readonly Suite[] = [
  defineSuite({
    id: 'mcq',
    protocol: mcqProtocol,
    describe: KERNEL_SUITE_SUMMARIES.mcq.describe,
    needsData: KERNEL_SUITE_SUMMARIES.mcq.needsData,
    load: (o) => {
      if (!o.fields) throw new ConfigError('suite mcq needs a field mapping (--fields question=...,options=...,answer=...)');
      return loadGenericMcq(o.data, o.fields, 'mcq');
    },
  }),
  defineSuite({
    id: 'generated-tom',
    protocol: mcqProtocol,
    describe: KERNEL_SUITE_SUMMARIES['generated-tom'].describe,
    needsData: KERNEL_SUITE_SUMMARIES['generated-tom'].needsData,
    load: (o) => ({ items: generateTomItems({ count: o.count ?? 300, seed: o.seed }), warnings: [] }),
  }),
];
