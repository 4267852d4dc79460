// The EnactToM suites: released tasks, and procedural tasks verified by the planner.

import { defineSuite, type Suite } from '../../suites/index.js';
import { episodeProtocol } from './protocol/episode-protocol.js';
import { loadEnactTom, loadGeneratedEnactTom } from './suites/embodied-suites.js';

/** The study's suites, in the order `mindscope suites` lists them. */
export const ENACTTOM_SUITES: readonly Suite[] = [
  defineSuite({
    id: 'enacttom',
    protocol: episodeProtocol,
    describe: 'EnactToM embodied tasks (task JSON; --data FILE or the shared data root), run as multi-agent episodes',
    needsData: true,
    load: (o) => loadEnactTom(o.data),
  }),
  defineSuite({
    id: 'generated-enacttom',
    protocol: episodeProtocol,
    describe: 'procedural EnactToM-style embodied tasks, verified (depths 1-4, both categories, 2-6 agents; seeded; --limit N, default 30)',
    needsData: false,
    load: (o) => loadGeneratedEnactTom(o.count ?? 30, o.seed),
  }),
];
