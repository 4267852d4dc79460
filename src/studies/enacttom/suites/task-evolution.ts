// The next round of an evolving pool, as the EnactToM paper seeds it: a share rho of the new tasks
// (0.8 for the standard split, 0.9 for the hard one) take the generator settings (family, depth,
// agents, category, budget, graph, mechanic) of a task the evaluated models failed, the rest
// those of a task they passed.

import { generateTasks, type GenerateTaskOptions, type GeneratedTask } from './task-generator.js';

/** Settings to evolve from: those of tasks the models failed, and of those they passed. */
export interface EvolutionSeeds {
  failed: Array<Record<string, unknown>>;
  passed: Array<Record<string, unknown>>;
}

/** Whether the i-th of a run of draws is a failed seed, so that any prefix holds round(rho * length) of them. */
const drawsFailed = (rho: number, i: number) => Math.round(rho * (i + 1)) - Math.round(rho * i) === 1;

/**
 * `n` new verified tasks, seeded: task i takes its settings from a failed task when its draw says
 * so (a share rho in all), else from a passed one; a side with no task gives its draws to the other.
 * `fromFailed` counts the tasks seeded from failed tasks.
 */
export function evolveTasks(
  seeds: EvolutionSeeds,
  n: number,
  seed: number,
  rho = 0.8,
): { tasks: GeneratedTask[]; fromFailed: number; failedShare: number } {
  if (seeds.failed.length + seeds.passed.length === 0) throw new Error('no generated tasks to evolve from');
  let fromFailed = 0;
  const sideOf = (i: number) => {
    const want = drawsFailed(rho, i) ? seeds.failed : seeds.passed;
    return want.length ? want : want === seeds.failed ? seeds.passed : seeds.failed;
  };
  for (let i = 0; i < n; i++) if (sideOf(i) === seeds.failed) fromFailed++;
  const tasks = generateTasks({
    n,
    seed,
    pick: (i, rng) => {
      const s = rng.pick(sideOf(i)) as Partial<GenerateTaskOptions>;
      return {
        family: s.family,
        depth: s.depth,
        agents: s.agents,
        category: s.category,
        budget: s.budget ?? undefined,
        graph: s.graph,
        mechanic: s.mechanic,
      };
    },
  });
  return { tasks, fromFailed, failedShare: n ? fromFailed / n : 0 };
}
