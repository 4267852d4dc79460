// Embodied suites as items for the episode protocol: EnactToM task files (`enacttom`, --data
// FILE or the shared data root) and the procedural generator (`generated-enacttom`).

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, type Item } from '../../../core/index.js';
import { kDepth, readEnactTomTasks, type EmbodiedTask } from '../world/index.js';
import type { EpisodePayload } from '../protocol/episode-protocol.js';
import { readJson } from '../../../core/index.js';
import { generateTasks } from './task-generator.js';

/** An embodied task as an item of the episode protocol. */
export function embodiedItem(suite: string, task: EmbodiedTask): Item<EpisodePayload> {
  return {
    suite,
    id: task.id,
    category: 'knowledge',
    ability: `${task.category}-depth${kDepth(task.goal)}`,
    payload: { task },
    answer: 'functional success',
    meta: { title: task.title, agents: task.agents.length, notes: task.source.notes, generator: task.source.generator ?? null },
  };
}

/** A task file, a folder holding one (the shared data root or its enacttom folder). */
export function resolveTaskFile(data: string): string {
  if (existsSync(data) && statSync(data).isFile()) return data;
  for (const candidate of [join(data, 'enacttom', 'sample_tasks.json'), join(data, 'sample_tasks.json')])
    if (existsSync(candidate)) return candidate;
  throw new InputError('no EnactToM task file here (give the file, or a folder with enacttom/sample_tasks.json)', data);
}

/** The items of an EnactToM task file (or a folder holding one), with the reader's notes as warnings. */
export function loadEnactTom(data: string): { items: Item<EpisodePayload>[]; warnings: string[] } {
  const file = resolveTaskFile(data);
  const tasks = readEnactTomTasks(readJson(file), file);
  const first = new Map<string, number>();
  tasks.forEach((t, i) => {
    const before = first.get(t.id);
    if (before !== undefined) throw new InputError(`duplicate task id "${t.id}" at [${before}] and at [${i}]`, file);
    first.set(t.id, i);
  });
  return {
    items: tasks.map((t) => embodiedItem('enacttom', t)),
    warnings: tasks.flatMap((t) => t.source.notes.map((n) => `${file} (${t.id}): ${n}`)),
  };
}

/** N generated, verified tasks as items of the `generated-enacttom` suite. */
export function loadGeneratedEnactTom(count: number, seed: number): { items: Item<EpisodePayload>[]; warnings: string[] } {
  return { items: generateTasks({ n: count, seed }).map((g) => embodiedItem('generated-enacttom', g.task)), warnings: [] };
}
