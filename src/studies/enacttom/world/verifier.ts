// verifyTask: solvable within the turn limit; the smallest ToM level at which it is; whether
// the physical part is solvable with every secret revealed to everyone (calibration); whether
// it needs communication at all; trivial K goals; a plan; and why, when it is not solvable
// (unsolvable-reasons.ts). Each level is first checked by relaxed reachability, then searched
// (task-search.ts).

import { epistemicNodes, formatFormula, kDepth, predicates, stripEpistemic } from './goal.js';
import { relaxedReachable } from './relaxed-reachability.js';
import type { EmbodiedTask } from './task.js';
import { TaskSearch, type PlanStep, type SearchOptions, type SearchResult } from './task-search.js';
import { explainUnsolvable, type UnsolvableReason } from './unsolvable-reasons.js';
import { World } from './world.js';

export interface VerifyResult {
  task: string;
  kDepth: number;
  solvable: boolean | 'undecided';
  /** Smallest ToM level (0 = no communication) at which a plan exists within the turn limit. */
  minToMLevel: number | null;
  calibrates: boolean | 'undecided';
  needsCommunication: boolean | 'undecided';
  trivialK: string[];
  plan: PlanStep[] | null;
  rounds: number | null;
  /** Why no plan was found (empty when solved): the reasons' texts. */
  explanations: string[];
  /** The same reasons with their kind and the goal part each is about (unsolvable-reasons.ts). */
  reasons: UnsolvableReason[];
  nodes: number;
  ms: number;
}

/** Epistemic nodes whose agent can observe every entity of the formula itself (no room barred). */
export function trivialKNodes(task: EmbodiedTask): string[] {
  const world = new World(task);
  const s = world.initialState();
  return epistemicNodes(task.goal)
    .filter((node) => {
      const a = world.agents.indexOf(node.agent);
      const names = predicates(node.arg).flatMap((p) => p.args);
      const remote = task.mechanics.some(
        (m) => (m.type === 'remote_control' || m.type === 'state_mirroring') && names.includes(m.target ?? ''),
      );
      return (
        !remote &&
        node.arg.op === 'pred' &&
        names.every(
          (n) => world.index.get(n)?.kind === 'agent' || (world.entityRoom(s, n) >= 0 && !world.barred[a]![world.entityRoom(s, n)]),
        )
      );
    })
    .map((node) => formatFormula(node));
}

/** Nodes the weighted search gets before the greedy one is tried (tasks solved within it keep their shortest-first plans). */
const FIRST_PASS_NODES = 4_000;
/** Nodes the greedy pass gets before the weighted search resumes with the rest of the cap. */
const GREEDY_PASS_NODES = 8_000;

/**
 * The weighted best-first search, cut short; then, if that did not decide, a greedy pass (fast on
 * the wide plateaus of many-agent tasks); then the weighted search with the full cap, continued
 * from where the first pass stopped (search-run.ts: the same nodes, plan and count as starting
 * over). An exhaustive "unsolvable" from either pass is final.
 */
function phasedSearch(search: TaskSearch, opts: SearchOptions): SearchResult {
  const cap = opts.maxNodes ?? 200_000;
  const weighted = search.begin(opts);
  const first = weighted.advance(Math.min(cap, FIRST_PASS_NODES));
  if (first.status !== 'undecided' || cap <= FIRST_PASS_NODES) return first;
  const greedy = search.search({ ...opts, greedy: true, maxNodes: Math.min(cap, GREEDY_PASS_NODES) });
  if (greedy.status !== 'undecided') return { ...greedy, nodes: first.nodes + greedy.nodes };
  const full = weighted.advance(cap);
  return { ...full, nodes: first.nodes + greedy.nodes + full.nodes };
}

/** Verify a task: solvability, minimal ToM level, calibration, need for communication, trivial K goals and a plan. */
export function verifyTask(task: EmbodiedTask, opts: { maxNodes?: number; maxLevel?: number } = {}): VerifyResult {
  const t0 = performance.now();
  const search = new TaskSearch(task);
  const depth = kDepth(task.goal);
  const maxLevel = opts.maxLevel ?? Math.max(3, depth + 1);
  let nodes = 0;
  let minLevel: number | null = null;
  let found: SearchResult | null = null;
  let undecided = false;
  let noMessages: SearchResult['status'] = 'undecided';
  for (let level = 0; level <= maxLevel; level++) {
    const r: SearchResult = relaxedReachable(search, level, task.goal)
      ? phasedSearch(search, { level, maxNodes: opts.maxNodes })
      : { status: 'unsolvable', plan: null, rounds: null, nodes: 0 };
    nodes += r.nodes;
    if (level === 0) noMessages = r.status;
    if (r.status === 'solved') {
      minLevel = level;
      found = r;
      break;
    }
    if (r.status === 'undecided') undecided = true;
  }
  const physical = stripEpistemic(task.goal);
  const calib: SearchResult = relaxedReachable(search, 0, physical, true)
    ? phasedSearch(search, { level: 0, physicalOnly: true, revealAll: true, maxNodes: opts.maxNodes })
    : { status: 'unsolvable', plan: null, rounds: null, nodes: 0 };
  nodes += calib.nodes;
  const solvable = found ? true : undecided ? 'undecided' : false;
  const reasons = found ? [] : explainUnsolvable(search, { maxLevel, undecided, maxNodes: opts.maxNodes });
  return {
    task: task.id,
    kDepth: depth,
    solvable,
    minToMLevel: minLevel,
    calibrates: calib.status === 'solved' ? true : calib.status === 'undecided' ? 'undecided' : false,
    needsCommunication: noMessages === 'solved' ? false : noMessages === 'unsolvable' ? true : 'undecided',
    trivialK: trivialKNodes(task),
    plan: found?.plan ?? null,
    rounds: found?.rounds ?? null,
    explanations: reasons.map((r) => r.text),
    reasons,
    nodes,
    ms: performance.now() - t0,
  };
}
