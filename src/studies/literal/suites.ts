// The released multiple-choice ToM benchmarks, each read from its published files.

import { manifest } from './manifest.js';
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
    ...manifest.suiteSummaries.tombench,
    load: (o) => loadTomBench(o.data),
  }),
  defineSuite({
    id: 'tomato',
    protocol: mcqProtocol,
    ...manifest.suiteSummaries.tomato,
    load: (o) => loadTomato(o.data),
  }),
  defineSuite({
    id: 'hitom',
    protocol: mcqProtocol,
    ...manifest.suiteSummaries.hitom,
    load: (o) => loadHitom(o.data),
  }),
  defineSuite({
    id: 'tomi',
    protocol: mcqProtocol,
    ...manifest.suiteSummaries.tomi,
    load: (o) => loadTomi(o.data),
  }),
  defineSuite({
    id: 'bigtom',
    protocol: mcqProtocol,
    ...manifest.suiteSummaries.bigtom,
    load: (o) => loadBigtom(o.data),
  }),
  defineSuite({
    id: 'opentom',
    protocol: mcqProtocol,
    ...manifest.suiteSummaries.opentom,
    load: (o) => loadOpentom(o.data),
  }),
  defineSuite({
    id: 'mmtom-qa',
    protocol: mcqProtocol,
    ...manifest.suiteSummaries['mmtom-qa'],
    load: (o) => loadMmtomQa(o.data),
  }),
  defineSuite({
    id: 'cogtom',
    protocol: mcqProtocol,
    ...manifest.suiteSummaries.cogtom,
    load: (o) => loadGenericMcq(o.data, COGTOM_FIELDS, 'cogtom'),
  }),
];
