// OpenToM (Xu et al. 2024): per-question-type files mapping a story id to its questions, and
// meta_data.json holding the narratives. Questions are free-form with closed label sets, which
// become the options: Yes/No (coarse location), positive/neutral/negative (attitude),
// more/equally/less full or accessible (multihop), and for fine-grained location the two
// places of the story's move (original and new).

import { basename, join } from 'node:path';
import type { Category } from '../../../core/index.js';
import { InputError } from '../../../core/index.js';
import { field, listFiles, mcqItem, resolveDataDir, type LoadResult } from '../../../suites/index.js';
import { readJson } from '../../../core/index.js';

interface Meta {
  narrative?: string;
  plot_info?: { original_place?: string; move_to_place?: string };
}

function labelSet(file: string, answer: string, question: string, meta: Meta): string[] | undefined {
  const a = answer.toLowerCase();
  if (file.startsWith('location_cg')) return ['Yes', 'No'];
  if (file === 'attitude') return ['positive', 'neutral', 'negative'];
  if (file.startsWith('multihop')) {
    if (/accessib/.test(a) || /accessib/.test(question)) return ['more accessible', 'equally accessible', 'less accessible'];
    return ['more full', 'equally full', 'less full'];
  }
  if (file.startsWith('location_fg')) {
    const places = [meta.plot_info?.original_place, meta.plot_info?.move_to_place].filter((p): p is string => !!p);
    return places.length === 2 && places[0] !== places[1] ? places : undefined;
  }
  return undefined;
}

const CATEGORY: Array<[RegExp, Category]> = [
  [/^attitude/, 'emotion'],
  [/^(location|multihop)/, 'belief'],
];

/** Load OpenToM's closed-label questions as multiple-choice items (questions whose answer is not an option are left out with a warning). */
export function loadOpentom(dataRoot: string): LoadResult {
  const dir = resolveDataDir(dataRoot, 'opentom');
  const metaFile = join(dir, 'meta_data.json');
  const meta = readJson(metaFile) as Record<string, Meta>;
  const items: LoadResult['items'] = [];
  const warnings: string[] = [];
  for (const file of listFiles(
    dir,
    /^(attitude|location_|multihop_).*\.json$/,
    'OpenToM attitude*.json, location_*.json or multihop_*.json files',
  )) {
    const kind = basename(file, '.json');
    const category = CATEGORY.find(([re]) => re.test(kind))![1];
    const data = readJson(file) as Record<string, unknown>;
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new InputError('expected an object of story id -> questions', file);
    for (const [storyId, questions] of Object.entries(data)) {
      const m = meta[storyId];
      if (!m?.narrative) throw new InputError(`story ${storyId} has no narrative in ${metaFile}`, file);
      if (!Array.isArray(questions)) throw new InputError(`story ${storyId}: expected a list of questions`, file);
      questions.forEach((raw, qi) => {
        const rec = raw as Record<string, unknown>;
        const where = `${file} [${storyId} ${qi}]`;
        const question = field(rec, 'question', where);
        const answer = field(rec, 'answer', where).trim();
        const options = labelSet(kind, answer, question, m);
        const answerIndex = options?.findIndex((o) => o.toLowerCase() === answer.toLowerCase()) ?? -1;
        if (!options || answerIndex < 0) {
          warnings.push(`${where}: answer "${answer}" is not among the options this question type allows; item left out`);
          return;
        }
        items.push(
          mcqItem({
            suite: 'opentom',
            id: `${kind}/${storyId}/${qi}`,
            category,
            ability: String(rec.type ?? kind),
            context: m.narrative!,
            question,
            options,
            answerIndex,
            meta: { originalLabel: String(rec.type ?? kind), file: kind },
            file: where,
          }),
        );
      });
    }
  }
  return { items, warnings };
}
