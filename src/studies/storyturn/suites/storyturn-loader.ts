// Reading StoryTurns: JSON or JSONL of whole stories ({ id, mental_state, setting, turns:
// [{ story, feedback, question, image, answer }], images: { id: path } }), or a table (CSV,
// Parquet) with one row per turn and a column mapping (CoMMET's release is such a Parquet
// table; its defaults: story_id, turn, story, feedback, question, image, answer, mental_state,
// setting, image_path). Image paths are resolved next to the file and must stay inside its folder
// and hold real images, read once into the story (storyturn-images.ts); a story id given twice is refused. Stories are validated
// (turn.ts): a branch without an answer, feedback naming an unknown option, a missing image.
// A story's `reviews` (each reviewer's verdicts) decide its status (storyturn-reviews.ts); a
// story without them keeps the `status` its file gives.

import { dirname } from 'node:path';
import { InputError, type Category, type Item } from '../../../core/index.js';
import { validateStoryTurn, type StoryTurnStory } from '../protocol/storyturn.js';
import { readRecords } from '../../../suites/index.js';
import type { StoryTurnPayload } from '../protocol/storyturn-protocol.js';
import { checkedImage } from './storyturn-images.js';
import { readReviews, reviewStatus } from './storyturn-reviews.js';

export interface StoryTurnColumns {
  storyId: string;
  turn: string;
  story: string;
  feedback: string;
  question: string;
  image: string;
  answer: string;
  state: string;
  setting: string;
  imagePath: string;
  status: string;
  category: string;
  task: string;
}

export const DEFAULT_STORYTURN_COLUMNS: StoryTurnColumns = {
  storyId: 'story_id',
  turn: 'turn',
  story: 'story',
  feedback: 'feedback',
  question: 'question',
  image: 'image',
  answer: 'answer',
  state: 'mental_state',
  setting: 'setting',
  imagePath: 'image_path',
  status: 'status',
  category: 'category',
  task: 'task',
};

/** CoMMET's category as written (NLC, NLCE, MBK upper-cased; a state name as the state). */
function categoryOf(v: unknown): string | undefined {
  const s = String(v ?? '').trim();
  if (!s) return undefined;
  return /^(nlc|nlce|mbk)$/i.test(s) ? s.toUpperCase() : stateOf(s);
}

const optional = <K extends string>(key: K, v: string | undefined): Partial<Record<K, string>> =>
  v ? ({ [key]: v } as Record<K, string>) : {};

const STATE_ALIASES: Record<string, StoryTurnStory['state']> = {
  beliefs: 'belief',
  desires: 'desire',
  intentions: 'intention',
  emotions: 'emotion',
  percepts: 'percept',
  'non-literal communication': 'non-literal',
  morality: 'moral',
  moral: 'moral',
};

function stateOf(v: unknown): StoryTurnStory['state'] {
  const s = String(v ?? '')
    .trim()
    .toLowerCase();
  return (STATE_ALIASES[s] ?? s) as StoryTurnStory['state'];
}

/** Read StoryTurns from JSON, JSONL, or a CSV/Parquet table of turns with a column mapping; each is validated. */
export async function readStoryTurns(file: string, columns: Partial<StoryTurnColumns> = {}): Promise<StoryTurnStory[]> {
  const c = { ...DEFAULT_STORYTURN_COLUMNS, ...columns };
  const records = await readRecords(file);
  const base = dirname(file);
  const stories: StoryTurnStory[] = [];
  if (records.length && Array.isArray(records[0]!.value.turns)) {
    const seen = new Map<string, number>();
    for (const { line, value: v } of records) {
      const id = String(v.id ?? '');
      const before = seen.get(id);
      if (before !== undefined) throw new InputError(`duplicate story id "${id}" (first at line ${before})`, file, line);
      seen.set(id, line);
      const turns = (v.turns as Array<Record<string, unknown>>).map((t) => ({
        story: String(t.story ?? ''),
        feedback: String(t.feedback ?? ''),
        question: String(t.question ?? ''),
        image: String(t.image ?? ''),
        answer: String(t.answer ?? ''),
      }));
      const refs = Object.entries((v.images as Record<string, string>) ?? {}).map(([k, p]) => [k, String(p)] as const);
      const images = Object.fromEntries(refs.map(([k, p]) => [k, checkedImage(p, base, `images.${k}`, file, line)]));
      const files = refs.filter(([k, p]) => images[k] !== p);
      const s: StoryTurnStory = {
        id,
        state: stateOf(v.mental_state ?? v.state),
        setting: v.setting === 'image-dependent' ? 'image-dependent' : 'text-complete',
        turns,
        images,
        ...(files.length ? { imageFiles: Object.fromEntries(files) } : {}),
        status: (v.status as StoryTurnStory['status']) ?? 'approved',
        source: file,
        ...optional('category', categoryOf(v.category)),
        ...optional('task', String(v.task ?? '').trim() || undefined),
        ...(Array.isArray(v.review) ? { review: (v.review as unknown[]).map(String) } : {}),
      };
      const reviews = readReviews(v.reviews, file, line);
      if (reviews?.length) {
        s.reviews = reviews;
        s.status = reviewStatus(s);
      }
      validateStoryTurn(s, `${file}:${line}`);
      stories.push(s);
    }
    return stories;
  }
  // One row per turn.
  const byId = new Map<string, { rows: Array<{ line: number; v: Record<string, unknown> }> }>();
  for (const { line, value: v } of records) {
    const id = String(v[c.storyId] ?? '').trim();
    if (!id) throw new InputError(`no story id in column "${c.storyId}"`, file, line);
    const entry = byId.get(id) ?? { rows: [] };
    entry.rows.push({ line, v });
    byId.set(id, entry);
  }
  for (const [id, { rows }] of byId) {
    rows.sort((a, b) => Number(a.v[c.turn]) - Number(b.v[c.turn]));
    const first = rows[0]!;
    const images: Record<string, string> = {};
    const imageFiles: Record<string, string> = {};
    const turns = rows.map(({ line, v }) => {
      const image = String(v[c.image] ?? '').trim();
      // Several images (one per condition) pair with as many paths, ';' separating both.
      const ids = image
        .split(';')
        .map((x) => x.trim())
        .filter(Boolean);
      const paths = String(v[c.imagePath] ?? '')
        .split(';')
        .map((x) => x.trim())
        .filter(Boolean);
      ids.forEach((id, k) => {
        if (!paths[k]) return;
        images[id] = checkedImage(paths[k]!, base, `column "${c.imagePath}"`, file, line);
        if (images[id] !== paths[k]) imageFiles[id] = paths[k]!;
      });
      return {
        story: String(v[c.story] ?? ''),
        feedback: String(v[c.feedback] ?? ''),
        question: String(v[c.question] ?? ''),
        image,
        answer: String(v[c.answer] ?? ''),
      };
    });
    const s: StoryTurnStory = {
      id,
      state: stateOf(first.v[c.state]),
      setting: String(first.v[c.setting] ?? '').includes('image') ? 'image-dependent' : 'text-complete',
      turns,
      images,
      ...(Object.keys(imageFiles).length ? { imageFiles } : {}),
      status: (String(first.v[c.status] ?? '') || 'approved') as StoryTurnStory['status'],
      source: file,
      ...optional('category', categoryOf(first.v[c.category])),
      ...optional('task', String(first.v[c.task] ?? '').trim() || undefined),
    };
    validateStoryTurn(s, `${file}:${first.line}`);
    stories.push(s);
  }
  return stories;
}

/** A StoryTurn as an item of the conversation protocol. */
export function storyTurnItem(suite: string, story: StoryTurnStory): Item<StoryTurnPayload> {
  const category: Category = story.state;
  // The item is what the model is shown: the images' bytes, not where the files lie (the hash of
  // an item must change with an image, and not with the folder it is loaded from), nor who
  // reviewed it (a further verdict does not change the item).
  const { imageFiles: _where, reviews: _reviews, ...shown } = story;
  return {
    suite,
    id: story.id,
    category,
    ability: story.setting,
    payload: { story: shown },
    answer: story.turns.map((t) => t.answer).join(' | '),
    meta: {
      setting: story.setting,
      status: story.status,
      turns: story.turns.length,
      ...(story.category ? { commetCategory: story.category } : {}),
      ...(story.task ? { task: story.task } : {}),
    },
  };
}

/** Approved stories as items (runs use approved items; generated ones await review). */
export async function loadStoryTurnSuite(
  file: string,
  suite = 'storyturn',
): Promise<{ items: Item<StoryTurnPayload>[]; warnings: string[] }> {
  const stories = await readStoryTurns(file);
  const held = stories.filter((s) => s.status !== 'approved');
  return {
    items: stories.filter((s) => s.status === 'approved').map((s) => storyTurnItem(suite, s)),
    warnings: held.length ? [`${file}: ${held.length} StoryTurn(s) not approved (status generated or rejected) left out`] : [],
  };
}
