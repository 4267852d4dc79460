// Hi-ToM (He et al. 2023): higher-order beliefs, orders 0-4. The release holds each story and
// question twice, once per prompting style (VP vanilla, CoTP chain-of-thought); the suite takes
// one style (VP by default). Choices come as one string "A. x, B. y, ..."; the answer is the
// text of one choice.

import { InputError } from '../../../core/index.js';
import { field, mcqItem, resolveDataDir, type LoadResult } from '../../../suites/index.js';
import { readJson } from '../../../core/index.js';
import { join } from 'node:path';
import { existsSync, statSync } from 'node:fs';

function parseLetteredChoices(choices: string): string[] {
  const parts = choices.split(/(?:^|,\s*)([A-Z])\.\s*/).slice(1);
  const out: string[] = [];
  for (let i = 0; i < parts.length; i += 2) out.push(parts[i + 1]!.trim());
  return out;
}

/** Load Hi-ToM (orders 0-4) as multiple-choice items. */
export function loadHitom(dataRoot: string, opts: { prompting?: 'VP' | 'CoTP' } = {}): LoadResult {
  const file = existsSync(dataRoot) && statSync(dataRoot).isFile() ? dataRoot : join(resolveDataDir(dataRoot, 'hitom'), 'Hi-ToM_data.json');
  const data = readJson(file) as { data?: unknown };
  if (!data || !Array.isArray(data.data)) throw new InputError('expected {"data": [...]}', file);
  const prompting = opts.prompting ?? 'VP';
  const items: LoadResult['items'] = [];
  data.data.forEach((raw, i) => {
    const rec = raw as Record<string, unknown>;
    const where = `${file} [data ${i}]`;
    if (rec.prompting_type !== prompting) return;
    const options = parseLetteredChoices(field(rec, 'choices', where));
    const answer = field(rec, 'answer', where).trim();
    const order = Number(rec.question_order);
    // The release writes the flag as a JSON boolean; older copies as the string "True".
    const deception = rec.deception === true || rec.deception === 'True';
    if (!Number.isInteger(order) || order < 0 || order > 4)
      throw new InputError(`question_order "${String(rec.question_order)}" is not 0-4`, where);
    items.push(
      mcqItem({
        suite: 'hitom',
        id: `${rec.sample_id ?? i}-o${order}-len${rec.story_length}-${deception ? 'dec' : 'nodec'}`,
        category: order === 0 ? 'control' : 'belief',
        ability: `order ${order}`,
        context: field(rec, 'story', where),
        question: field(rec, 'question', where),
        options,
        answerIndex: options.indexOf(answer),
        meta: { originalLabel: `order-${order}`, order, deception, storyLength: Number(rec.story_length) },
        file: where,
      }),
    );
  });
  return { items, warnings: [] };
}
