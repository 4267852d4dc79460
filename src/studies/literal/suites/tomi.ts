// ToMi (Le et al. 2019): bAbI-style numbered story lines; a question line reads
// "n question<TAB>answer<TAB>1", and the matching .trace line names the question type as its
// second-to-last field. Answers are containers; the options are the containers the story
// mentions, in order of first mention.

import { join } from 'node:path';
import type { Category } from '../../../core/index.js';
import { InputError } from '../../../core/index.js';
import { mcqItem, resolveDataDir, type LoadResult } from '../../../suites/index.js';
import { readJson, readText } from '../../../core/index.js';

export type TomiSplit = 'train' | 'val' | 'test';

function categoryOf(qtype: string): { category: Category; order: number } {
  if (qtype.startsWith('first_order')) return { category: 'belief', order: 1 };
  if (qtype.startsWith('second_order')) return { category: 'belief', order: 2 };
  return { category: 'control', order: 0 }; // reality, memory
}

/** Load ToMi's test split with its traces as multiple-choice items over the story's containers. */
export function loadTomi(dataRoot: string, opts: { split?: TomiSplit } = {}): LoadResult {
  const dir = resolveDataDir(dataRoot, 'tomi');
  const split = opts.split ?? 'test';
  const file = join(dir, `fb_all_${split}.txt`);
  const traceFile = join(dir, `fb_all_${split}.trace`);
  const lines = readText(file).split('\n');
  const traces = readText(traceFile)
    .split('\n')
    .filter((l) => l.trim());
  const world = readJson(join(dir, 'world.json')) as { locations?: string[] };
  if (!Array.isArray(world?.locations)) throw new InputError('expected a "locations" list', join(dir, 'world.json'));
  const locations = new Set(world.locations);
  const items: LoadResult['items'] = [];
  let story: string[] = [];
  let q = 0;
  lines.forEach((raw, i) => {
    if (!raw.trim()) return;
    const m = /^(\d+) (.*)$/.exec(raw);
    if (!m) throw new InputError('expected a numbered line', file, i + 1);
    if (m[1] === '1') story = [];
    const parts = m[2]!.split('\t');
    if (parts.length === 1) {
      story.push(m[2]!);
      return;
    }
    if (parts.length < 2) throw new InputError('question line needs "question<TAB>answer"', file, i + 1);
    const question = parts[0]!;
    const answer = parts[1]!;
    const trace = traces[q];
    if (trace === undefined) throw new InputError(`question ${q + 1} has no line in ${traceFile}`, file, i + 1);
    const fields = trace.split(',');
    const qtype = fields[fields.length - 2]!;
    const containers: string[] = [];
    for (const sentence of story) {
      const place = /(?:is in|to) the (\S+?)\.$/.exec(sentence)?.[1];
      // "X is in the kitchen" names a room, not a container.
      if (place && !locations.has(place) && !containers.includes(place)) containers.push(place);
    }
    if (!containers.includes(answer)) containers.push(answer);
    const { category, order } = categoryOf(qtype);
    items.push(
      mcqItem({
        suite: 'tomi',
        id: `${split}-${q}`,
        category,
        ability: qtype,
        context: story.join('\n'),
        question,
        options: containers,
        answerIndex: containers.indexOf(answer),
        meta: { originalLabel: qtype, order, beliefType: fields[fields.length - 1] },
        file,
        line: i + 1,
      }),
    );
    q++;
  });
  return { items, warnings: [] };
}
