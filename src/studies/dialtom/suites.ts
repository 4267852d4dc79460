// DialToM's multiple-choice suites: retrospective (literal), prospective (functional), prospective with out-of-dialogue distractors, counterfactual.

import { defineSuite, type Suite } from '../../suites/index.js';
import { loadDialtom } from './suites/dialtom.js';
import { mcqProtocol } from '../../protocols/index.js';

/** The study's suites, in the order `mindscope suites` lists them. */
export const DIALTOM_SUITES: readonly Suite[] = [
  defineSuite({
    id: 'dialtom-retrospective',
    protocol: mcqProtocol,
    describe: 'DialToM retrospective (literal), 999 items',
    needsData: true,
    load: (o) => loadDialtom(o.data, 'retrospective'),
  }),
  defineSuite({
    id: 'dialtom-prospective',
    protocol: mcqProtocol,
    describe: 'DialToM prospective (functional), 523 items',
    needsData: true,
    load: (o) => loadDialtom(o.data, 'prospective'),
  }),
  defineSuite({
    id: 'dialtom-prospective-easy',
    protocol: mcqProtocol,
    describe: 'DialToM prospective with out-of-dialogue distractors, 523 items',
    needsData: true,
    load: (o) => loadDialtom(o.data, 'prospective-easy'),
  }),
  defineSuite({
    id: 'dialtom-counterfactual',
    protocol: mcqProtocol,
    describe: 'DialToM counterfactual profiles with "None of the above"',
    needsData: true,
    load: (o) => loadDialtom(o.data, 'counterfactual'),
  }),
];
