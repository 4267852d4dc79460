// DialToM's multiple-choice suites: retrospective (literal), prospective (functional), prospective with out-of-dialogue distractors, counterfactual.

import { manifest } from './manifest.js';
import { defineSuite, type Suite } from '../../suites/index.js';
import { loadDialtom } from './suites/dialtom.js';
import { mcqProtocol } from '../../protocols/index.js';

/** The study's suites, in the order `mindscope suites` lists them. */
export const DIALTOM_SUITES: readonly Suite[] = [
  defineSuite({
    id: 'dialtom-retrospective',
    protocol: mcqProtocol,
    ...manifest.suiteSummaries['dialtom-retrospective'],
    load: (o) => loadDialtom(o.data, 'retrospective'),
  }),
  defineSuite({
    id: 'dialtom-prospective',
    protocol: mcqProtocol,
    ...manifest.suiteSummaries['dialtom-prospective'],
    load: (o) => loadDialtom(o.data, 'prospective'),
  }),
  defineSuite({
    id: 'dialtom-prospective-easy',
    protocol: mcqProtocol,
    ...manifest.suiteSummaries['dialtom-prospective-easy'],
    load: (o) => loadDialtom(o.data, 'prospective-easy'),
  }),
  defineSuite({
    id: 'dialtom-counterfactual',
    protocol: mcqProtocol,
    ...manifest.suiteSummaries['dialtom-counterfactual'],
    load: (o) => loadDialtom(o.data, 'counterfactual'),
  }),
];
