// Suite ids -> loaders. Every literal suite yields multiple-choice items for the MCQ protocol.

import { dirname, isAbsolute, join } from 'node:path';
import { ConfigError, InputError } from '../core/index.js';
import { loadBigtom } from './literal/bigtom.js';
import { loadDialtom } from './literal/dialtom.js';
import { COGTOM_FIELDS, loadGenericMcq, type McqFieldMap } from './literal/generic-mcq.js';
import { loadHitom } from './literal/hitom.js';
import { loadMmtomQa } from './literal/mmtom-qa.js';
import { loadOpentom } from './literal/opentom.js';
import { loadTomato } from './literal/tomato.js';
import { loadTomBench } from './literal/tombench.js';
import { loadTomi } from './literal/tomi.js';
import { generateTomItems } from './generated/story-generator.js';
import type { LoadResult } from './read-input.js';
import { loadEnactTom, loadGeneratedEnactTom } from './embodied/embodied-suites.js';
import { generateStoryTurns } from './storyturn/storyturn-generator.js';
import { directorItems } from './vision/director-suite.js';
import { triangleItems, videoTriangleItems } from './vision/triangles-suite.js';
import { videoGrid } from './vision/video-frames.js';
import { readJson } from './read-input.js';
import { loadStoryTurnSuite, storyTurnItem } from './storyturn/storyturn-loader.js';

export interface SuiteLoadOptions {
  /** Data folder (the shared data root, the suite's folder, or for file-based suites a file). */
  data?: string;
  /** Seed for generated suites. */
  seed: number;
  /** Number of items for generated suites (default 300). */
  count?: number;
  /** Field mapping for the generic `mcq` suite. */
  fields?: McqFieldMap;
}

interface SuiteDefinition {
  describe: string;
  needsData: boolean;
  /** The protocol that runs the items: multiple choice (default) or embodied episodes. */
  protocol?: 'mcq' | 'episode' | 'conversation' | 'director' | 'describe';
  load(opts: SuiteLoadOptions & { data: string }): LoadResult<unknown> | Promise<LoadResult<unknown>>;
}

export const SUITES: Record<string, SuiteDefinition> = {
  tombench: { describe: 'ToMBench, 2,860 items in 20 tasks', needsData: true, load: (o) => loadTomBench(o.data) },
  tomato: {
    describe: 'ToMATO (full format; the shared data has the false-belief subset)',
    needsData: true,
    load: (o) => loadTomato(o.data),
  },
  'dialtom-retrospective': {
    describe: 'DialToM retrospective (literal), 999 items',
    needsData: true,
    load: (o) => loadDialtom(o.data, 'retrospective'),
  },
  'dialtom-prospective': {
    describe: 'DialToM prospective (functional), 523 items',
    needsData: true,
    load: (o) => loadDialtom(o.data, 'prospective'),
  },
  'dialtom-prospective-easy': {
    describe: 'DialToM prospective with out-of-dialogue distractors, 523 items',
    needsData: true,
    load: (o) => loadDialtom(o.data, 'prospective-easy'),
  },
  'dialtom-counterfactual': {
    describe: 'DialToM counterfactual profiles with "None of the above"',
    needsData: true,
    load: (o) => loadDialtom(o.data, 'counterfactual'),
  },
  hitom: { describe: 'Hi-ToM, orders 0-4 (VP prompting records)', needsData: true, load: (o) => loadHitom(o.data) },
  tomi: { describe: 'ToMi test split', needsData: true, load: (o) => loadTomi(o.data) },
  bigtom: { describe: 'BigToM, 6 conditions x 200 stories', needsData: true, load: (o) => loadBigtom(o.data) },
  opentom: { describe: 'OpenToM, closed-label questions', needsData: true, load: (o) => loadOpentom(o.data) },
  'mmtom-qa': { describe: 'MMToM-QA, text version', needsData: true, load: (o) => loadMmtomQa(o.data) },
  cogtom: {
    describe: 'CogToM (fields scene, question, options, answer, category, subcategory); --data FILE',
    needsData: true,
    load: (o) => loadGenericMcq(o.data, COGTOM_FIELDS, 'cogtom'),
  },
  mcq: {
    describe: 'generic MCQ file (JSONL, JSON, CSV, Parquet) with a field mapping; --data FILE',
    needsData: true,
    load: (o) => {
      if (!o.fields) throw new ConfigError('suite mcq needs a field mapping (--fields question=...,options=...,answer=...)');
      return loadGenericMcq(o.data, o.fields, 'mcq');
    },
  },
  enacttom: {
    describe: 'EnactToM embodied tasks (task JSON; --data FILE or the shared data root), run as multi-agent episodes',
    needsData: true,
    protocol: 'episode',
    load: (o) => loadEnactTom(o.data),
  },
  'generated-enacttom': {
    describe: 'procedural EnactToM-style embodied tasks, verified (depths 1-3, both categories, 2-4 agents; seeded; --limit N, default 30)',
    needsData: false,
    protocol: 'episode',
    load: (o) => loadGeneratedEnactTom(o.count ?? 30, o.seed),
  },
  storyturn: {
    describe: 'StoryTurn conversations (CoMMET format; JSON/JSONL stories or a CSV/Parquet table of turns; --data FILE); approved items',
    needsData: true,
    protocol: 'conversation',
    load: (o) => loadStoryTurnSuite(o.data),
  },
  'generated-storyturn': {
    describe:
      'procedural booklet-style StoryTurns with feedback branches (belief, perspective with a picture, second-order why, sarcasm, desires; seeded; --limit N, default 60)',
    needsData: false,
    protocol: 'conversation',
    load: (o) => ({
      items: generateStoryTurns({ count: o.count ?? 60, seed: o.seed }).map((s) => storyTurnItem('generated-storyturn', s)),
      warnings: [],
    }),
  },
  director: {
    describe:
      'Director Task scenes with pictures: canonical, no-occluder, same-side director and four-block arms, interleaved (seeded; --limit N scenes in all, default 48)',
    needsData: false,
    protocol: 'director',
    load: (o) => ({ items: directorItems({ perArm: Math.ceil((o.count ?? 48) / 4), seed: o.seed }), warnings: [] }),
  },
  triangles: {
    describe:
      'animated triangles: twelve procedural clips (ToM, goal-directed, random) as frame grids, forward, time-reversed and static (seeded); describe, then judge with mindscope score',
    needsData: false,
    protocol: 'describe',
    load: (o) => ({ items: triangleItems({ seed: o.seed }), warnings: [] }),
  },
  'triangles-video': {
    describe:
      'animated triangles from your own video files: --data clips.json listing { file, condition, script }; 16 frames sampled with ffmpeg into a grid',
    needsData: true,
    protocol: 'describe',
    load: (o) => {
      const clips = readJson(o.data) as Array<{ file: string; condition: string; script: string; behaviour?: string }>;
      if (!Array.isArray(clips)) throw new InputError('expected a JSON list of clips', o.data);
      return {
        items: videoTriangleItems(
          o.data,
          clips,
          (p) => (isAbsolute(p) ? p : join(dirname(o.data), p)),
          (f) => videoGrid(f),
        ),
        warnings: [],
      };
    },
  },
  'generated-tom': {
    describe: 'procedural false-belief, knowledge, perception and 2nd-4th order stories (seeded)',
    needsData: false,
    load: (o) => ({ items: generateTomItems({ count: o.count ?? 300, seed: o.seed }), warnings: [] }),
  },
};

export function suiteProtocol(id: string): 'mcq' | 'episode' | 'conversation' | 'director' | 'describe' {
  return SUITES[id]?.protocol ?? 'mcq';
}

export async function loadSuite(id: string, opts: SuiteLoadOptions): Promise<LoadResult<unknown>> {
  const def = SUITES[id];
  if (!def) throw new ConfigError(`unknown suite "${id}"; known suites: ${Object.keys(SUITES).join(', ')}`);
  if (def.needsData && !opts.data) throw new ConfigError(`suite ${id} reads data files: give their folder with --data`);
  return def.load({ ...opts, data: opts.data ?? '' });
}
