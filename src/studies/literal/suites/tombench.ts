// ToMBench (Chen et al. 2024): 20 task files of bilingual JSON lines. The ATOMS category is
// the prefix of the ability label ("Belief: Location false beliefs" -> belief). Answers should
// be a bare letter; a malformed one such as "A. " is repaired when one letter can be read
// from it, and reported.

import { basename } from 'node:path';
import type { Category } from '../../../core/index.js';
import { InputError } from '../../../core/index.js';
import { field, listFiles, mcqItem, resolveDataDir, type LoadResult } from '../../../suites/index.js';
import { readJsonLines } from '../../../core/index.js';

const ABILITY = '能力\nABILITY';
const INDEX = '序号\nINDEX';
const ANSWER = '答案\nANSWER';

const CATEGORY_OF_PREFIX: Record<string, Category> = {
  belief: 'belief',
  desire: 'desire',
  intention: 'intention',
  emotion: 'emotion',
  knowledge: 'knowledge',
  'non-literal communication': 'non-literal',
};

export interface TomBenchOptions {
  /** `en` (default) reads STORY/QUESTION/OPTION-x; `zh` reads the Chinese fields. */
  language?: 'en' | 'zh';
}

/** Load ToMBench's task files as multiple-choice items, mapping its abilities onto ATOMS categories (malformed answers repaired and reported). */
export function loadTomBench(dataRoot: string, opts: TomBenchOptions = {}): LoadResult {
  const dir = resolveDataDir(dataRoot, 'tombench');
  const zh = opts.language === 'zh';
  const items: LoadResult['items'] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const file of listFiles(dir, /\.jsonl$/, 'ToMBench *.jsonl files')) {
    const task = basename(file, '.jsonl');
    for (const { line, value } of readJsonLines(file)) {
      const ability = field(value, ABILITY, file, line).trim();
      const prefix = ability.split(':')[0]!.trim().toLowerCase();
      const category = CATEGORY_OF_PREFIX[prefix];
      if (!category) throw new InputError(`unknown ability prefix "${prefix}" in "${ability}"`, file, line);
      const rawAnswer = field(value, ANSWER, file, line);
      const letter = /^\s*([A-D])\s*(?:[.)．、:]\s*)?$/.exec(rawAnswer)?.[1];
      if (!letter) throw new InputError(`answer "${rawAnswer}" is not one of A-D`, file, line);
      if (rawAnswer !== letter) warnings.push(`${file}:${line}: answer "${rawAnswer}" read as "${letter}"`);
      // Two-option tasks (faux pas, strange stories) leave C and D empty (NaN in the file).
      const labels = ['A', 'B', 'C', 'D'].filter((l) => {
        const v = value[zh ? `选项${l}` : `OPTION-${l}`];
        return v !== null && v !== undefined && String(v).trim() !== '';
      });
      if (!labels.includes(letter)) throw new InputError(`answer "${letter}" names an empty option`, file, line);
      // Some options repeat their own label ("A. text"); drop it, as the prompt adds labels.
      const options = labels.map((l) =>
        field(value, zh ? `选项${l}` : `OPTION-${l}`, file, line)
          .trim()
          .replace(new RegExp(`^${l}[.．]\\s*`), ''),
      );
      if (new Set(options).size !== options.length)
        warnings.push(`${file}:${line}: two options have the same text (${options.join(' | ')}); kept`);
      let id = `${task}:${value[INDEX] ?? line}`;
      if (seen.has(id)) id = `${id}@${line}`;
      seen.add(id);
      items.push(
        mcqItem({
          suite: 'tombench',
          id,
          category,
          ability,
          context: field(value, zh ? '故事' : 'STORY', file, line),
          question: field(value, zh ? '问题' : 'QUESTION', file, line),
          options,
          answerIndex: labels.indexOf(letter),
          meta: { originalLabel: ability, task, answerRepaired: rawAnswer !== letter ? rawAnswer : undefined },
          file,
          line,
          allowDuplicateOptions: true,
        }),
      );
    }
  }
  return { items, warnings };
}
