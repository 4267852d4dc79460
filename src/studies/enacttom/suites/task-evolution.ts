// The next round of an evolving pool: every new task takes the generator settings (family,
// depth, agents, category, budget, graph, mechanic) of a task that failed enough in the last
// round (failure ratio >= rho), as the EnactToM paper seeds each round from its failed tasks.

import { generateTasks, type GenerateTaskOptions, type GeneratedTask } from './task-generator.js';

/** Settings to evolve from: those of tasks that failed enough, and of the rest. */
export interface EvolutionSeeds {
  failed: Array<Record<string, unknown>>;
  passed: Array<Record<string, unknown>>;
}

/**
 * `n` new verified tasks, seeded, each drawing its settings from a failed-enough task; when no
 * task reached rho, from all tasks (`fromFailed` is then false).
 */
export function evolveTasks(seeds: EvolutionSeeds, n: number, seed: number): { tasks: GeneratedTask[]; fromFailed: boolean } {
  const fromFailed = seeds.failed.length > 0;
  const from = fromFailed ? seeds.failed : seeds.passed;
  if (from.length === 0) throw new Error('no generated tasks to evolve from');
  const tasks = generateTasks({
    n,
    seed,
    pick: (_i, rng) => {
      const s = rng.pick(from) as Partial<GenerateTaskOptions>;
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
  return { tasks, fromFailed };
}
