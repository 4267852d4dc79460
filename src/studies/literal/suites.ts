// The released multiple-choice ToM benchmarks, each read from its published files.

import { defineSuite, loadGenericMcq, type Suite } from '../../suites/index.js';
import { loadBigtom } from './suites/bigtom.js';
import { COGTOM_FIELDS } from './suites/cogtom.js';
import { loadHitom } from './suites/hitom.js';
import { loadMmtomQa } from './suites/mmtom-qa.js';
import { loadOpentom } from './suites/opentom.js';
import { loadTomato } from './suites/tomato.js';
import { loadTomBench } from './suites/tombench.js';
import { loadTomi } from './suites/tomi.js';
import { mcqProtocol } from '../../protocols/index.js';

/** The study's suites, in the order `mindscope suites` lists them. */
export const LITERAL_SUITES: readonly Suite[] = [
  defineSuite({
    id: 'tombench',
    protocol: mcqProtocol,
    describe: 'ToMBench, 2,860 items in 20 tasks',
    needsData: true,
    load: (o) => loadTomBench(o.data),
  }),
  defineSuite({
    id: 'tomato',
    protocol: mcqProtocol,
    describe: 'ToMATO (full format; the shared data has the false-belief subset)',
    needsData: true,
    load: (o) => loadTomato(o.data),
  }),
  defineSuite({
    id: 'hitom',
    protocol: mcqProtocol,
    describe: 'Hi-ToM, orders 0-4 (VP prompting records)',
    needsData: true,
    load: (o) => loadHitom(o.data),
  }),
  defineSuite({
    id: 'tomi',
    protocol: mcqProtocol,
    describe: 'ToMi test split',
    needsData: true,
    load: (o) => loadTomi(o.data),
  }),
  defineSuite({
    id: 'bigtom',
    protocol: mcqProtocol,
    describe: 'BigToM, 6 conditions x 200 stories',
    needsData: true,
    load: (o) => loadBigtom(o.data),
  }),
  defineSuite({
    id: 'opentom',
    protocol: mcqProtocol,
    describe: 'OpenToM, closed-label questions',
    needsData: true,
    load: (o) => loadOpentom(o.data),
  }),
  defineSuite({
    id: 'mmtom-qa',
    protocol: mcqProtocol,
    describe: 'MMToM-QA, text version',
    needsData: true,
    load: (o) => loadMmtomQa(o.data),
  }),
  defineSuite({
    id: 'cogtom',
    protocol: mcqProtocol,
    describe: 'CogToM (fields scene, question, options, answer, category, subcategory); --data FILE',
    needsData: true,
    load: (o) => loadGenericMcq(o.data, COGTOM_FIELDS, 'cogtom'),
  }),
];
