// The StoryTurn suites (CoMMET): the user's stories, and procedural booklet-style ones.

import { defineSuite, generateStoryTurns, loadStoryTurnSuite, storyTurnItem, type Suite } from '../../suites/index.js';
import { conversationProtocol } from '../../protocols/index.js';

/** The study's suites, in the order `mindscope suites` lists them. */
export const STORYTURN_SUITES: readonly Suite[] = [
  defineSuite({
    id: 'storyturn',
    protocol: conversationProtocol,
    describe: 'StoryTurn conversations (CoMMET format; JSON/JSONL stories or a CSV/Parquet table of turns; --data FILE); approved items',
    needsData: true,
    load: (o) => loadStoryTurnSuite(o.data),
  }),
  defineSuite({
    id: 'generated-storyturn',
    protocol: conversationProtocol,
    describe:
      'procedural booklet-style StoryTurns with feedback branches (belief, perspective with a picture, second-order why, sarcasm, desires; seeded; --limit N, default 60)',
    needsData: false,
    load: (o) => ({
      items: generateStoryTurns({ count: o.count ?? 60, seed: o.seed }).map((s) => storyTurnItem('generated-storyturn', s)),
      warnings: [],
    }),
  }),
];
