// The ids of a run that its store could not keep as they are (core/storable-text.ts), refused
// before the run stores or calls anything: the store would refuse each of its trials instead.

import type { Task } from '../core/index.js';
import { ConfigError } from '../core/errors.js';
import { unstorableColumnText, unstorableId } from '../core/storable-text.js';

/** Refuses, before anything is stored or called, a run whose ids the store would read back as other ids (core/storable-text.ts). */
export function assertStorableIds(runId: string, subjectIds: string[], tasks: Task[]): void {
  const refused =
    unstorableId('run id', runId) ??
    subjectIds.map((id) => unstorableId('subject id', id)).find(Boolean) ??
    tasks.map((t) => unstorableId('suite', t.suite)).find(Boolean);
  if (refused) throw new ConfigError(refused);
  for (const task of tasks) {
    for (const item of task.items) {
      const why =
        unstorableId('item id', item.id) ??
        unstorableColumnText(`the answer of item ${item.id}`, String(item.answer)) ??
        unstorableColumnText(`the category of item ${item.id}`, String(item.category)) ??
        (item.ability === undefined ? undefined : unstorableColumnText(`the ability of item ${item.id}`, String(item.ability)));
      if (why) throw new ConfigError(`suite ${task.suite}: ${why}`);
    }
  }
}
