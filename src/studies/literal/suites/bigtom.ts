// BigToM (Gandhi et al. 2023): 200 stories in a ';'-separated file without a header, 19
// positional columns. Each story yields six two-option items, as in the paper's conditions:
// forward belief, forward action (story + whether the agent perceived the change) and backward
// belief (story + the agent's action), each with the agent aware (true belief) or unaware
// (false belief). Option order is seeded per item.

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createRng, deriveSeed, InputError } from '../../../core/index.js';
import { mcqItem, resolveDataDir, type LoadResult } from '../../../suites/index.js';
import { readText } from '../../../core/index.js';

// Column positions in bigtom.csv.
const C = {
  story: 0,
  perceptAware: 1,
  perceptUnaware: 2,
  actionAware: 3,
  actionUnaware: 4,
  beliefQuestion: 5,
  actionQuestion: 7,
  beliefAware: 8,
  actionAnswerAware: 10,
  beliefUnaware: 11,
  actionAnswerUnaware: 13,
} as const;

/** Load BigToM (bigtom.csv, six conditions per story) as multiple-choice items. */
export function loadBigtom(dataRoot: string): LoadResult {
  const file = existsSync(dataRoot) && statSync(dataRoot).isFile() ? dataRoot : join(resolveDataDir(dataRoot, 'bigtom'), 'bigtom.csv');
  const items: LoadResult['items'] = [];
  readText(file)
    .split('\n')
    .forEach((raw, i) => {
      if (!raw.trim()) return;
      const line = i + 1;
      const cols = raw.split(';');
      if (cols.length < 19) throw new InputError(`expected 19 ';'-separated columns, found ${cols.length}`, file, line);
      const col = (k: keyof typeof C) => {
        const v = cols[C[k]]!.trim();
        if (!v) throw new InputError(`column ${C[k] + 1} (${k}) is empty`, file, line);
        return v;
      };
      const story = col('story');
      const conditions = [
        {
          name: 'forward-belief',
          cue: (aware: boolean) => col(aware ? 'perceptAware' : 'perceptUnaware'),
          q: col('beliefQuestion'),
          answers: [col('beliefAware'), col('beliefUnaware')],
        },
        {
          name: 'forward-action',
          cue: (aware: boolean) => col(aware ? 'perceptAware' : 'perceptUnaware'),
          q: col('actionQuestion'),
          answers: [col('actionAnswerAware'), col('actionAnswerUnaware')],
        },
        {
          name: 'backward-belief',
          cue: (aware: boolean) => col(aware ? 'actionAware' : 'actionUnaware'),
          q: col('beliefQuestion'),
          answers: [col('beliefAware'), col('beliefUnaware')],
        },
      ];
      for (const c of conditions) {
        for (const aware of [true, false]) {
          const beliefType = aware ? 'true-belief' : 'false-belief';
          const id = `${i}-${c.name}-${beliefType}`;
          const correct = c.answers[aware ? 0 : 1]!;
          const options = createRng(deriveSeed('bigtom', id)).shuffle(c.answers);
          items.push(
            mcqItem({
              suite: 'bigtom',
              id,
              category: 'belief',
              ability: `${c.name} ${beliefType}`,
              context: `${story} ${c.cue(aware)}`,
              question: c.q,
              options,
              answerIndex: options.indexOf(correct),
              meta: { originalLabel: `${c.name}_${beliefType}`, condition: c.name, beliefType, story: i },
              file,
              line,
            }),
          );
        }
      }
    });
  return { items, warnings: [] };
}
