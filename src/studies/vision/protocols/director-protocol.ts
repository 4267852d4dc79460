// The Director-Task protocol: one scene (its picture as an image part), three prompts:
//   (a) which blocks can the director see? (multi-select)
//   (b) the director's request ("Move the largest block"): which block do you move? (single)
//   (c) a two-step gate in one conversation: c.Q1 repeats (a), then c.Q2 asks which block to move.
// Answers name each block by colour word and letter ("red A"); the colours are not in the text,
// so colour level tests what the model sees. Replies are read at letter and colour level apart
// (director-answers.ts); an egocentric error is marked when (b) or c.Q2 picks the hidden block.
// The score is (b) at letter level.

import { BLOCK_COLORS, directorView, targetBlock, type DirectorScene } from '../world/index.js';
import {
  callInfoKey,
  readInfo,
  withInfo,
  type ChatMessage,
  type ContentPart,
  type Item,
  type Task,
  type TrialContext,
  type TrialModel,
} from '../../../core/index.js';
import { defineProtocol, type ReferencePolicy } from '../../../protocols/index.js';
import { DIRECTOR_RECORDS, type DirectorDetail, type DirectorScoreDetail } from './director-records.js';
import { judgeMove, judgeSeen } from './director-answers.js';

export { readBlocks } from './director-answers.js';

export const DIRECTOR_SCORER = DIRECTOR_RECORDS.scorer;

export interface DirectorPayload {
  scene: DirectorScene;
  /** The scene's picture (a data URL). */
  picture: string;
}

const SYSTEM = `You look at a table with blocks. Another person, the director, also looks at the table from where they stand. Name each block by its colour and its letter, for example "red A"; colours are one of: ${BLOCK_COLORS.join(', ')}. End your reply with a line "Answer: <colour> <letter>, ...".`;

/** What a Director call tells reference subjects: the scene and the prompt ('a': which blocks the director sees; 'b': which to move). */
export interface DirectorCallInfo {
  scene: DirectorScene;
  prompt: 'a' | 'b';
}

export const DIRECTOR_INFO = callInfoKey<DirectorCallInfo>('director');

/** One Director trial: prompts a, b and the c gate on a scene, each reply judged at letter and colour level. */
export async function runDirector(p: DirectorPayload, model: TrialModel, ctx: TrialContext): Promise<DirectorDetail> {
  const s = p.scene;
  const letters = s.blocks.map((b) => b.letter).join(', ');
  const intro: ContentPart[] = [
    { type: 'image', url: p.picture, mediaType: 'image/png' },
    {
      type: 'text',
      text: `The blocks carry the letters ${letters}, left to right. The director stands ${s.director === 'across' ? 'on the other side of the table, facing you' : 'beside you, on your side of the table'}.`,
    },
  ];
  const qa = 'Which blocks can the director see? List every block, by colour and letter.';
  const qb = `The director says: "Move the ${s.extremum} block." Which block do you move? Give one block, by colour and letter.`;
  const seen = directorView(s);
  const target = targetBlock(s, 'director').letter;
  const ask = async (messages: ChatMessage[], prompt: 'a' | 'b') => {
    const r = await model.chat(messages, {}, { replicateSeed: ctx.seed, info: withInfo(DIRECTOR_INFO, { scene: s, prompt }) });
    return r.text;
  };
  const base: ChatMessage[] = [{ role: 'system', content: SYSTEM }];
  const a = judgeSeen(await ask([...base, { role: 'user', content: [...intro, { type: 'text', text: qa }] }], 'a'), s, seen);
  const b = judgeMove(await ask([...base, { role: 'user', content: [...intro, { type: 'text', text: qb }] }], 'b'), s, target);
  const c1Messages: ChatMessage[] = [...base, { role: 'user', content: [...intro, { type: 'text', text: qa }] }];
  const c1Reply = await ask(c1Messages, 'a');
  const cQ1 = judgeSeen(c1Reply, s, seen);
  const cQ2 = judgeMove(await ask([...c1Messages, { role: 'assistant', content: c1Reply }, { role: 'user', content: qb }], 'b'), s, target);
  return { sceneId: s.id, arm: s.arm, blocks: s.blocks.length, a, b, cQ1, cQ2, extremum: s.extremum, design: s.design };
}

/** A Director-Task task over a suite's scenes. */
export function createDirectorTask(suite: string, items: Item<DirectorPayload>[]): Task<DirectorPayload> {
  return {
    suite,
    items,
    records: DIRECTOR_RECORDS,
    async execute(item, model, ctx) {
      const d = await runDirector(item.payload, model, ctx);
      const detail: DirectorScoreDetail = {
        a: d.a.letter,
        b: d.b.letter,
        cQ1: d.cQ1.letter,
        cQ2: d.cQ2.letter,
        egocentric: d.b.egocentric,
        egocentricCQ2: d.cQ2.egocentric,
        color: { a: d.a.color, b: d.b.color, cQ1: d.cQ1.color, cQ2: d.cQ2.color },
        modes: { a: d.a.mode!, b: d.b.mode!, cQ1: d.cQ1.mode!, cQ2: d.cQ2.mode! },
        arm: d.arm,
        blocks: d.blocks,
        extremum: d.extremum,
        design: d.design,
      };
      return { detail: d, score: { scorer: DIRECTOR_SCORER, value: d.b.letter ? 1 : 0, detail } };
    },
  };
}

/**
 * Reference subjects on the Director Task: every agent reports what the director sees (a,
 * c.Q1); when acting (b, c.Q2) allocentric (and oracle) take the director's view, the others
 * their own: the "know but don't use" pattern, so egocentric's explicit-implicit gap is 1 on
 * the canonical arm.
 */
function directorPolicy(describe: string, view: 'director' | 'addressee'): ReferencePolicy {
  return {
    describe,
    reply(ctx) {
      const d = readInfo(ctx.info, DIRECTOR_INFO);
      if (!d) return undefined;
      const name = (l: string) => `${d.scene.blocks.find((b) => b.letter === l)!.color} ${l}`;
      if (d.prompt === 'a') return `Answer: ${directorView(d.scene).map(name).join(', ')}`;
      return `Answer: ${name(targetBlock(d.scene, view).letter)}`;
    },
  };
}

const DIRECTOR_POLICIES: Record<string, ReferencePolicy> = {
  allocentric: directorPolicy("Director Task: takes the director's view", 'director'),
  egocentric: directorPolicy("Director Task: reports the director's view but acts from its own", 'addressee'),
  oracle: directorPolicy("takes the director's view", 'director'),
  '*': directorPolicy("reports the director's view, acts from its own", 'addressee'),
};

/** The Director Task (Keysar et al. 2000): prompts a, b and the c.Q1/c.Q2 gate on one scene. */
export const directorProtocol = defineProtocol<DirectorPayload>({
  name: 'director',
  describe: 'the Director Task: which blocks the director sees, which block to move, and the two-step gate; egocentric errors marked',
  records: DIRECTOR_RECORDS,
  policies: DIRECTOR_POLICIES,
  answer: (r) => {
    const d = r as DirectorDetail;
    const prompts = Object.entries({ a: d.a, b: d.b, cQ1: d.cQ1, cQ2: d.cQ2 });
    return {
      reply: JSON.stringify(Object.fromEntries(prompts.map(([k, v]) => [k, v.reply]))),
      parsed: JSON.stringify(Object.fromEntries(prompts.map(([k, v]) => [k, v.letters ?? []]))),
    };
  },
  createTask: (suite, items) => createDirectorTask(suite, items),
});
