// MMToM-QA (Jin et al. 2024), text version: JSON lines whose question holds the apartment
// description, the actions, then "Question: ... (a) ... (b) ... Please respond with either a
// or b." Types 1.x ask about beliefs, 2.x about goals (desires).

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../../core/index.js';
import { field, mcqItem, resolveDataDir, type LoadResult } from '../../../suites/index.js';
import { readJsonLines } from '../../../core/index.js';

/** Load MMToM-QA (text version) as two-option items. */
export function loadMmtomQa(dataRoot: string): LoadResult {
  const file =
    existsSync(dataRoot) && statSync(dataRoot).isFile() ? dataRoot : join(resolveDataDir(dataRoot, 'mmtom-qa'), 'questions.json');
  const items: LoadResult['items'] = [];
  for (const { line, value } of readJsonLines(file)) {
    const text = field(value, 'question', file, line);
    const m = /^([\s\S]*?)\s*Question:\s*([\s\S]*?)\s*\(a\)\s*([\s\S]*?)\s*\(b\)\s*([\s\S]*?)\s*(?:Please respond[\s\S]*)?$/.exec(text);
    if (!m) throw new InputError('cannot find "Question: ... (a) ... (b) ..." in the question text', file, line);
    const answer = field(value, 'answer', file, line).trim().toLowerCase();
    if (answer !== 'a' && answer !== 'b') throw new InputError(`answer "${answer}" is not a or b`, file, line);
    const type = String(value.question_type);
    items.push(
      mcqItem({
        suite: 'mmtom-qa',
        id: `${line}`,
        category: type.startsWith('1') ? 'belief' : 'desire',
        ability: `type ${type}`,
        context: m[1]!.trim(),
        question: m[2]!.trim(),
        options: [m[3]!.trim(), m[4]!.trim()],
        answerIndex: answer === 'a' ? 0 : 1,
        meta: { originalLabel: type, episode: value.episode },
        file,
        line,
      }),
    );
  }
  return { items, warnings: [] };
}
