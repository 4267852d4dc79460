// The Director-Task protocol: one scene (its picture as an image part; its blocks named in the
// closed vocabulary of colours and letters), three prompts:
//   (a) which blocks can the director see? (multi-select)
//   (b) the director's request ("Move the largest block"): which block do you move? (single)
//   (c) a two-step gate in one conversation: c.Q1 repeats (a), then c.Q2 asks which block to move.
// Replies are read at colour level and at letter level; an egocentric error is marked when (b)
// or c.Q2 picks the hidden block. The score is (b) at letter level.

import {
  directorView,
  targetBlock,
  type ChatMessage,
  type ContentPart,
  type DirectorScene,
  type Item,
  type ProtocolResult,
  type Task,
  type TrialContext,
  type TrialModel,
} from '../../core/index.js';

export const DIRECTOR_SCORER = 'director-b';

export interface DirectorPayload {
  scene: DirectorScene;
  /** The scene's picture (a data URL). */
  picture: string;
}

const SYSTEM =
  'You look at a table with blocks. Another person, the director, also looks at the table from where they stand. Answer with block letters; end your reply with a line "Answer: <letters>".';

/** Letters and colours named in the answer part of a reply (closed vocabulary). */
export function readBlocks(reply: string, scene: DirectorScene): { letters: string[]; colors: string[] } {
  const part = /answer\s*:\s*([^\n]+)/i.exec(reply)?.[1] ?? reply;
  const letters = [...new Set((part.match(/\b[A-D]\b/g) ?? []).filter((l) => scene.blocks.some((b) => b.letter === l)))];
  const colors = [
    ...new Set((part.toLowerCase().match(/\b(red|blue|green|yellow)\b/g) ?? []).filter((c) => scene.blocks.some((b) => b.color === c))),
  ];
  return { letters, colors };
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

export interface DirectorDetail {
  sceneId: string;
  arm: string;
  blocks: number;
  a: { letter: boolean; color: boolean; reply: string };
  b: { letter: boolean; color: boolean; egocentric: boolean; reply: string };
  cQ1: { letter: boolean; color: boolean; reply: string };
  cQ2: { letter: boolean; color: boolean; egocentric: boolean; reply: string };
}

export async function runDirector(p: DirectorPayload, model: TrialModel, ctx: TrialContext): Promise<DirectorDetail> {
  const s = p.scene;
  const intro: ContentPart[] = [
    { type: 'image', url: p.picture, mediaType: 'image/png' },
    {
      type: 'text',
      text: `The blocks, left to right: ${s.blocks.map((b) => `${b.color} ${b.letter}`).join(', ')}. The director stands ${s.director === 'across' ? 'on the other side of the table, facing you' : 'beside you, on your side of the table'}.`,
    },
  ];
  const qa = 'Which blocks can the director see? List every letter.';
  const qb = `The director says: "Move the ${s.extremum} block." Which block do you move? Give one letter.`;
  const seen = directorView(s);
  const target = targetBlock(s, 'director');
  const colorOf = (l: string) => s.blocks.find((b) => b.letter === l)!.color;
  const ask = async (messages: ChatMessage[], prompt: string) => {
    const r = await model.chat(messages, {}, { replicateSeed: ctx.seed, director: { scene: s, prompt } });
    return r.text;
  };
  const judgeSeen = (reply: string) => {
    const r = readBlocks(reply, s);
    return { letter: sameSet(r.letters, seen), color: sameSet(r.colors, seen.map(colorOf)), reply };
  };
  const judgeMove = (reply: string) => {
    const r = readBlocks(reply, s);
    // Egocentric: picking the block the director cannot see (the partition hides it from across the table).
    const hiddenFromDirector = s.hidden !== null && !seen.includes(s.hidden) ? s.hidden : null;
    return {
      letter: r.letters.length === 1 && r.letters[0] === target.letter,
      color: r.colors.length === 1 && r.colors[0] === target.color,
      egocentric: hiddenFromDirector !== null && (r.letters[0] === hiddenFromDirector || r.colors[0] === colorOf(hiddenFromDirector)),
      reply,
    };
  };
  const base: ChatMessage[] = [{ role: 'system', content: SYSTEM }];
  const a = judgeSeen(await ask([...base, { role: 'user', content: [...intro, { type: 'text', text: qa }] }], 'a'));
  const b = judgeMove(await ask([...base, { role: 'user', content: [...intro, { type: 'text', text: qb }] }], 'b'));
  const c1Messages: ChatMessage[] = [...base, { role: 'user', content: [...intro, { type: 'text', text: qa }] }];
  const c1Reply = await ask(c1Messages, 'a');
  const cQ1 = judgeSeen(c1Reply);
  const cQ2 = judgeMove(await ask([...c1Messages, { role: 'assistant', content: c1Reply }, { role: 'user', content: qb }], 'b'));
  return { sceneId: s.id, arm: s.arm, blocks: s.blocks.length, a, b, cQ1, cQ2 };
}

export function createDirectorTask(suite: string, items: Item<DirectorPayload>[]): Task {
  return {
    suite,
    items,
    async execute(item: Item, model: TrialModel, ctx: TrialContext): Promise<ProtocolResult> {
      const d = await runDirector((item as Item<DirectorPayload>).payload, model, ctx);
      return {
        detail: d as unknown as Record<string, unknown>,
        score: {
          scorer: DIRECTOR_SCORER,
          value: d.b.letter ? 1 : 0,
          detail: {
            a: d.a.letter,
            b: d.b.letter,
            cQ1: d.cQ1.letter,
            cQ2: d.cQ2.letter,
            egocentric: d.b.egocentric,
            arm: d.arm,
            blocks: d.blocks,
          },
        },
      };
    },
  };
}
