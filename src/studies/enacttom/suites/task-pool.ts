// A task pool with the EnactToM paper's two splits. The paper's standard and hard splits differ
// only in the seed-task failure ratio rho of their generation: of the seed tasks each split is
// generated from, a share rho are tasks the target models failed (0.8 standard, 0.9 hard) and
// the rest tasks they passed. Here a split of k tasks takes round(rho * k) seeds drawn from the
// failed seed tasks and the rest from the passed ones (all from one kind when the other has
// none), and each new task is generated with its seed's generator settings (family, depth,
// agents, category, objects, extra parts, knowledge shape, capabilities, graph, mechanic).
// The seed tasks come with their failed/passed labels: from a stored run (a task failed when its
// failure ratio across the evaluated models reaches a threshold), or, without a run, a base
// round of generated tasks labelled by difficulty rank (the harder half failed). Everything is
// seeded: the same seed and seed tasks give the same pool.

import { createRng, type Rng } from '../../../core/index.js';
import { epistemicNodes, goalAtoms, kDepth, type EmbodiedTask, type VerifyResult } from '../world/index.js';
import { mechanicsOf } from './pool-composition.js';
import { generateTask, generateTasks, type GenerateTaskOptions, type GeneratedTask, type TaskDepth } from './task-generator.js';

export const POOL_SPLITS = ['standard', 'hard'] as const;
export type PoolSplit = (typeof POOL_SPLITS)[number];

/** The paper's seed-task failure ratio of each split. */
export const SPLIT_RHO: Record<PoolSplit, number> = { standard: 0.8, hard: 0.9 };

/** What makes a task hard to coordinate, as measured on the task and its verified plan. */
export interface DifficultyMeasures {
  kDepth: number;
  minToMLevel: number | null;
  agents: number;
  objects: number;
  goalAtoms: number;
  /** Epistemic nodes (K operators) of the goal: the literal probes. */
  kNodes: number;
  planRounds: number | null;
  planSteps: number;
  planMessages: number;
  turnLimit: number;
  /** Messages all limited agents may send together; null when nobody is limited. */
  messageBudget: number | null;
  mechanics: number;
  restrictedGraph: boolean;
  barredRooms: number;
  /** Agents lacking some of the actions (moving, opening, carrying, messaging). */
  constrainedAgents: number;
}

/** The difficulty measures of a verified task. */
export function difficultyOf(task: EmbodiedTask, verify: VerifyResult): DifficultyMeasures {
  const limited = task.agents.filter((a) => a.messageBudget !== null);
  const plan = verify.plan ?? [];
  return {
    kDepth: kDepth(task.goal),
    minToMLevel: verify.minToMLevel,
    agents: task.agents.length,
    objects: task.objects.length,
    goalAtoms: goalAtoms(task).length,
    kNodes: epistemicNodes(task.goal).length,
    planRounds: verify.rounds,
    planSteps: plan.filter((p) => p.action.type !== 'Wait').length,
    planMessages: plan.filter((p) => p.action.type === 'Communicate').length,
    turnLimit: task.turnLimit,
    messageBudget: limited.length ? limited.reduce((s, a) => s + (a.messageBudget ?? 0), 0) : null,
    mechanics: mechanicsOf(task).length,
    restrictedGraph: task.agents.some((a) => a.messageTargets !== null),
    barredRooms: task.agents.reduce((s, a) => s + a.barredRooms.length, 0),
    constrainedAgents: task.agents.filter((a) => ['Navigate', 'Open', 'Pick', 'Communicate'].some((x) => !a.actions.includes(x as never)))
      .length,
  };
}

/** The measures the difficulty rank averages (higher is harder; a tighter budget per message needed is harder). */
const RANKED: Array<(m: DifficultyMeasures) => number> = [
  (m) => m.kDepth,
  (m) => m.agents,
  (m) => m.kNodes,
  (m) => m.goalAtoms,
  (m) => m.planRounds ?? 0,
  (m) => m.planMessages,
  (m) => m.mechanics,
  (m) => (m.restrictedGraph ? 1 : 0),
  (m) => m.constrainedAgents,
];

/** Each task's difficulty rank in [0, 1]: the mean, over the ranked measures, of its mid-rank share within the set. */
export function difficultyRanks(measures: DifficultyMeasures[]): number[] {
  const n = measures.length;
  const out = new Array<number>(n).fill(0);
  for (const f of RANKED) {
    const xs = measures.map(f);
    for (let i = 0; i < n; i++) {
      const below = xs.filter((x) => x < xs[i]!).length;
      const same = xs.filter((x) => x === xs[i]!).length;
      out[i]! += n > 1 ? (below + (same - 1) / 2) / (n - 1) / RANKED.length : 0;
    }
  }
  return out;
}

/** A task a split's tasks may be generated from: its generator settings and whether the target models failed it. */
export interface SeedTask {
  id: string;
  settings: Record<string, unknown>;
  failed: boolean;
}

export interface PoolTaskEntry {
  id: string;
  split: PoolSplit;
  seedTask: string;
  seedFailed: boolean;
  category: string;
  family: string;
  difficulty: DifficultyMeasures & { rank: number };
}

export interface PoolManifest {
  n: number;
  seed: number;
  rho: Record<PoolSplit, number>;
  /** Where the seed tasks' labels come from. */
  labels: string;
  seeds: { tasks: number; failed: number; passed: number };
  splits: Record<PoolSplit, { tasks: number; fromFailed: number; fromPassed: number; mean: Record<string, number> }>;
  tasks: PoolTaskEntry[];
}

/** The generator settings a seed passes on. */
function settingsOf(s: Record<string, unknown>): Partial<GenerateTaskOptions> {
  const keys = ['family', 'depth', 'agents', 'category', 'objects', 'parts', 'knowledge', 'capabilities', 'graph', 'mechanic'] as const;
  const out: Record<string, unknown> = {};
  for (const k of keys) if (s[k] !== undefined && s[k] !== null) out[k] = s[k];
  if (typeof s.budget === 'number') out.budget = s.budget;
  return out as Partial<GenerateTaskOptions>;
}

/**
 * A task with a seed's settings; when no draft with all of them passes the checks, with its
 * family, depth, agents and category only (the rest drawn).
 */
function generateFrom(settings: Partial<GenerateTaskOptions>, rng: Rng, id: string): GeneratedTask {
  const core: GenerateTaskOptions = {
    depth: settings.depth ?? 1,
    category: settings.category ?? 'cooperative',
    agents: settings.agents ?? 2,
    ...(settings.family ? { family: settings.family } : {}),
  };
  try {
    return generateTask({ ...core, ...settings }, rng, id);
  } catch {
    return generateTask(core, rng, id);
  }
}

/**
 * A base round of `n` generated tasks labelled by difficulty rank: the harder half failed. The
 * round cycles depths 1-4 and both categories task by task (and the families and team sizes as
 * `generateTasks` does), so that even a small round has them all.
 */
export function difficultySeeds(n: number, seed: number): SeedTask[] {
  const base = generateTasks({
    n,
    seed,
    pick: (i) => ({ depth: ((i % 4) + 1) as TaskDepth, category: Math.floor(i / 4) % 2 === 0 ? 'cooperative' : 'mixed' }),
  });
  const ranks = difficultyRanks(base.map((g) => difficultyOf(g.task, g.verify)));
  const order = ranks.map((r, i) => ({ r, i })).sort((a, b) => b.r - a.r || a.i - b.i);
  const failed = new Set(order.slice(0, Math.floor(n / 2)).map((x) => x.i));
  return base.map((g, i) => ({ id: g.task.id, settings: g.task.source.generator ?? {}, failed: failed.has(i) }));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN);

/** A pool of `n` tasks, half standard (rho 0.8) and half hard (rho 0.9), generated from the seed tasks. */
export function buildPool(opts: { n: number; seed: number; seeds: SeedTask[]; labels: string }): {
  tasks: GeneratedTask[];
  manifest: PoolManifest;
} {
  const failed = opts.seeds.filter((s) => s.failed);
  const passed = opts.seeds.filter((s) => !s.failed);
  if (opts.seeds.length === 0) throw new Error('no seed tasks to generate the pool from');
  const tasks: GeneratedTask[] = [];
  const entries: Omit<PoolTaskEntry, 'difficulty'>[] = [];
  const splits = {} as PoolManifest['splits'];
  for (const split of POOL_SPLITS) {
    const k = split === 'standard' ? Math.ceil(opts.n / 2) : Math.floor(opts.n / 2);
    const rng = createRng(`embodied-pool:${opts.seed}:${split}`);
    const wantFailed = failed.length === 0 ? 0 : passed.length === 0 ? k : Math.round(SPLIT_RHO[split] * k);
    const fromFailed = rng.shuffle(Array.from({ length: k }, (_, j) => j < wantFailed));
    fromFailed.forEach((f, j) => {
      const s = rng.pick(f ? failed : passed);
      const id = `pool-${opts.seed}-${split}-${String(j).padStart(3, '0')}`;
      const g = generateFrom(settingsOf(s.settings), rng, id);
      const generator: Record<string, unknown> = { ...(g.json.generator as Record<string, unknown>), split, seedTask: s.id };
      g.json.generator = generator;
      g.task.source.generator = generator;
      tasks.push(g);
      entries.push({ id, split, seedTask: s.id, seedFailed: s.failed, category: g.task.category, family: String(generator.family) });
    });
    splits[split] = { tasks: k, fromFailed: wantFailed, fromPassed: k - wantFailed, mean: {} };
  }
  const measures = tasks.map((g) => difficultyOf(g.task, g.verify));
  const ranks = difficultyRanks(measures);
  const rows = entries.map((e, i) => ({ ...e, difficulty: { ...measures[i]!, rank: ranks[i]! } }));
  for (const split of POOL_SPLITS) {
    const mine = rows.filter((r) => r.split === split).map((r) => r.difficulty);
    const numeric = ['kDepth', 'agents', 'objects', 'goalAtoms', 'kNodes', 'planRounds', 'planMessages', 'mechanics', 'rank'] as const;
    splits[split].mean = Object.fromEntries(numeric.map((k) => [k, mean(mine.map((m) => Number(m[k] ?? 0)))]));
  }
  return {
    tasks,
    manifest: {
      n: opts.n,
      seed: opts.seed,
      rho: { ...SPLIT_RHO },
      labels: opts.labels,
      seeds: { tasks: opts.seeds.length, failed: failed.length, passed: passed.length },
      splits,
      tasks: rows,
    },
  };
}
