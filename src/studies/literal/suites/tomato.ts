// ToMATO (Shinoda et al. 2025): conversations between two LLM agents whose thoughts were
// verbalised; four options a0..a3, the correct index in a_idx, the mental state asked.
// Reads the full release format (a JSON list) and the false-belief subset alike.

import { existsSync, statSync } from 'node:fs';
import type { Category } from '../../../core/index.js';
import { InputError } from '../../../core/index.js';
import { field, listFiles, mcqItem, resolveDataDir, type LoadResult } from '../../../suites/index.js';
import { readJson } from '../../../core/index.js';

const STATES: Record<string, Category> = {
  belief: 'belief',
  knowledge: 'knowledge',
  desire: 'desire',
  emotion: 'emotion',
  intention: 'intention',
};

/** Load ToMATO as four-option items per mental state. */
export function loadTomato(dataRoot: string): LoadResult {
  const files =
    existsSync(dataRoot) && statSync(dataRoot).isFile()
      ? [dataRoot]
      : listFiles(resolveDataDir(dataRoot, 'tomato'), /\.json$/, 'ToMATO *.json files');
  const items: LoadResult['items'] = [];
  for (const file of files) {
    const data = readJson(file);
    if (!Array.isArray(data)) throw new InputError('expected a JSON list of items', file);
    data.forEach((raw, i) => {
      const rec = raw as Record<string, unknown>;
      const where = `${file} [item ${i}]`;
      const state = field(rec, 'mental_state', where).toLowerCase();
      const category = STATES[state];
      if (!category) throw new InputError(`unknown mental_state "${state}"`, where);
      const options = [0, 1, 2, 3].map((k) => field(rec, `a${k}`, where));
      const answerIndex = Number(rec.a_idx);
      if (!Number.isInteger(answerIndex) || answerIndex < 0 || answerIndex > 3)
        throw new InputError(`a_idx "${String(rec.a_idx)}" is not 0-3`, where);
      items.push(
        mcqItem({
          suite: 'tomato',
          id: field(rec, 'q_id', where),
          category,
          ability: `${rec.order === 2 ? 'second' : 'first'}-order ${state}${rec.false_belief ? ' (false belief)' : ''}`,
          context: field(rec, 'conversation', where),
          question: field(rec, 'q', where),
          options,
          answerIndex,
          meta: { originalLabel: state, order: rec.order, falseBelief: rec.false_belief, bigFive: rec.big_five },
          file: where,
        }),
      );
    });
  }
  return { items, warnings: [] };
}
