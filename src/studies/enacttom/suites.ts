// The EnactToM suites: released tasks, and procedural tasks verified by the planner.

import { manifest } from './manifest.js';
import { defineSuite, type Suite } from '../../suites/index.js';
import { episodeProtocol } from './protocol/episode-protocol.js';
import { loadEnactTom, loadGeneratedEnactTom } from './suites/embodied-suites.js';

/** The study's suites, in the order `mindscope suites` lists them. */
export const ENACTTOM_SUITES: readonly Suite[] = [
  defineSuite({
    id: 'enacttom',
    protocol: episodeProtocol,
    ...manifest.suiteSummaries.enacttom,
    load: (o) => loadEnactTom(o.data),
  }),
  defineSuite({
    id: 'generated-enacttom',
    protocol: episodeProtocol,
    ...manifest.suiteSummaries['generated-enacttom'],
    load: (o) => loadGeneratedEnactTom(o.count ?? 30, o.seed),
  }),
];
