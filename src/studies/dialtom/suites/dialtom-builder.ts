// Building DialToM items from dialogues (`mindscope dialtom build`), in the released format so
// the `dialtom-*` suites read them:
//   - windows of 150-200 words over the turns; a short trailing fragment (under 150 words) is
//     merged into the window before it;
//   - per window, six retrospective questions (Belief, Desires, Intentions, Emotions, Knowledge,
//     Trust): the true state first, then three confusable wrong ones, shuffled (seeded);
//   - one prospective question: the dialogue's own next turns (up to four) against three
//     distractor trajectories written from the distractor states;
//   - the easy set (distractors drawn from other dialogues' continuations, seeded), the
//     counterfactual profiles (the writer's contrary states where it gives them, else the first
//     wrong option of each state: only "None of the above" fits), and context-degradation
//     variants (states only; summary + states; history + states).
// The texts come from a writer: a file of written options, or a model (app/dialtom-writer.ts, or
// the paper's prompts in app/paper-writer.ts).

import { createRng, deriveSeed, InputError } from '../../../core/index.js';

export const DIALTOM_STATES = ['Belief', 'Desires', 'Intentions', 'Emotions', 'Knowledge', 'Trust'] as const;
export type DialtomState = (typeof DIALTOM_STATES)[number];

export interface Dialogue {
  id: string;
  domain: string;
  topic: string;
  taskDesc: string;
  /** "speaker: text" lines. */
  turns: string[];
}

export interface WindowTexts {
  /** The true state of the recipient at the end of the window, one sentence per state. */
  true: Record<DialtomState, string>;
  /** Three confusable wrong states per state. */
  wrong: Record<DialtomState, [string, string, string]>;
  /** Three continuations written from the distractor states. */
  distractorTrajectories: [string, string, string];
  summary?: string;
  /** A state contrary to each true state (the counterfactual profile); absent: the first wrong options. */
  counterfactual?: Record<DialtomState, string>;
}

/** A dialogue window: its id, its turns, and the turns after it (up to four; none for the last window). */
export interface DialogueWindow {
  id: string;
  lines: string[];
  next: string[];
}

export type Writer = (dialogue: Dialogue, window: DialogueWindow) => Promise<WindowTexts>;

/** Read dialogues for `dialtom build` (JSON or JSONL with domain, roles and turns); errors name the file and line. */
export function readDialogues(json: unknown, where: string): Dialogue[] {
  if (!Array.isArray(json)) throw new InputError('expected a list of dialogues', where);
  return json.map((d: Record<string, unknown>, i: number) => {
    const at = `${where} dialogue ${i} (${String(d?.id ?? '?')})`;
    if (!d || typeof d.id !== 'string' || !d.id) throw new InputError('each dialogue needs an id', `${where} dialogue ${i}`);
    if (typeof d.domain !== 'string' || !d.domain) throw new InputError('"domain" is missing', at);
    const raw = Array.isArray(d.turns) ? d.turns : Array.isArray(d.ctx) ? d.ctx : undefined;
    if (!raw || raw.length === 0) throw new InputError('"turns" must list the dialogue turns', at);
    const turns = raw.map((t: unknown, k: number) => {
      const line =
        typeof t === 'string'
          ? t
          : t && typeof t === 'object'
            ? `${String((t as Record<string, unknown>).speaker ?? '')}: ${String((t as Record<string, unknown>).text ?? '')}`
            : '';
      const [speaker, ...rest] = line.split(':');
      if (!speaker?.trim() || !rest.join(':').trim()) throw new InputError(`turn ${k} is empty (a turn needs a speaker and text)`, at);
      return line.trim();
    });
    return { id: d.id, domain: d.domain, topic: String(d.topic ?? ''), taskDesc: String(d.task_desc ?? d.taskDesc ?? ''), turns };
  });
}

const wordsOf = (line: string) => line.split(/\s+/).filter(Boolean).length;

/** Turn index ranges [start, end) of 150-200-word windows; a short tail joins the window before. */
export function dialogueWindows(turns: string[], min = 150, max = 200): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  let words = 0;
  for (let i = 0; i < turns.length; i++) {
    const w = wordsOf(turns[i]!);
    if (words >= min && words + w > max) {
      out.push([start, i]);
      start = i;
      words = 0;
    }
    words += w;
  }
  if (start < turns.length) {
    if (words < min && out.length) out[out.length - 1]![1] = turns.length;
    else out.push([start, turns.length]);
  }
  return out;
}

const LABELS = ['A', 'B', 'C', 'D'];

export interface BuiltItems {
  retrospective: Array<Record<string, unknown>>;
  prospective: Array<Record<string, unknown>>;
  prospectiveEasy: Array<Record<string, unknown>>;
  counterfactual: Record<string, string[]>;
  /** Prospective items with the recipient's history or a summary before the states. */
  degraded: Record<'states' | 'summary+states' | 'history+states', Array<Record<string, unknown>>>;
}

/** Build DialToM items from dialogues: windows, retrospective questions per attribute, prospective items with distractor trajectories, easy and counterfactual variants. */
export async function buildDialtomItems(
  dialogues: Dialogue[],
  writer: Writer,
  opts: { seed: number; focusState?: DialtomState },
): Promise<BuiltItems> {
  const retrospective: BuiltItems['retrospective'] = [];
  const prospective: BuiltItems['prospective'] = [];
  const counterfactual: BuiltItems['counterfactual'] = {};
  const summaries = new Map<string, string>();
  for (const d of dialogues) {
    const wins = dialogueWindows(d.turns);
    for (const [w, [start, end]] of wins.entries()) {
      const id = `${d.id}, ${w}`;
      const lines = d.turns.slice(start, end);
      // The prospective question needs the dialogue's own continuation.
      const next = d.turns.slice(end, end + 4);
      const texts = await writer(d, { id, lines, next });
      const rng = createRng(deriveSeed('dialtom-build', opts.seed, id));
      const options: Record<string, Record<string, string>> = {};
      const correct: Record<string, string> = {};
      for (const s of DIALTOM_STATES) {
        if (!texts.true?.[s] || !Array.isArray(texts.wrong?.[s]) || texts.wrong[s].length !== 3)
          throw new InputError(`window ${id}: the writer gave no true state and three wrong ones for ${s}`);
        if (texts.counterfactual && (typeof texts.counterfactual[s] !== 'string' || !texts.counterfactual[s]))
          throw new InputError(`window ${id}: the counterfactual profile has no ${s} state`);
        const order = rng.shuffle([0, 1, 2, 3]);
        const texts4 = [texts.true[s], ...texts.wrong[s]];
        options[s] = Object.fromEntries(order.map((src, k) => [LABELS[k], texts4[src]]));
        correct[s] = LABELS[order.indexOf(0)]!;
      }
      const state = opts.focusState ?? DIALTOM_STATES[rng.int(DIALTOM_STATES.length)];
      const record = { id, ctx: lines, correct_option: correct, options, state, topic: d.topic, task_desc: d.taskDesc, domain: d.domain };
      for (const s of DIALTOM_STATES) retrospective.push({ ...record, state: s });
      summaries.set(id, texts.summary ?? '');
      counterfactual[`${id}_${state}`] = DIALTOM_STATES.map((s) => texts.counterfactual?.[s] ?? texts.wrong[s][0]);
      if (next.length > 0) prospective.push({ ...record, correct_action: next.join('\n'), distractors: texts.distractorTrajectories });
    }
  }
  // Easy set: distractors are other dialogues' continuations.
  const prospectiveEasy = prospective.map((p) => {
    const rng = createRng(deriveSeed('dialtom-easy', opts.seed, String(p.id)));
    const dialogueId = String(p.id).split(',')[0];
    const others = prospective.filter((q) => String(q.id).split(',')[0] !== dialogueId).map((q) => String(q.correct_action));
    if (others.length < 3) throw new InputError('the easy set needs continuations from at least three windows of other dialogues');
    return { ...p, distractors: rng.shuffle(others).slice(0, 3) };
  });
  const degraded: BuiltItems['degraded'] = {
    states: prospective.map((p) => ({ ...p, context_mode: 'states' })),
    'summary+states': prospective.map((p) => ({ ...p, context_mode: 'summary+states', summary: summaries.get(String(p.id)) ?? '' })),
    'history+states': prospective.map((p) => ({ ...p, context_mode: 'history+states' })),
  };
  return { retrospective, prospective, prospectiveEasy, counterfactual, degraded };
}

/** Written options from a file: { "<dialogue id>, <window>": WindowTexts-like JSON }. */
export function fileWriter(json: unknown, where: string): Writer {
  const table = json as Record<string, Record<string, unknown>>;
  return async (_d, w) => {
    const t = table?.[w.id];
    if (!t) throw new InputError(`no written options for window "${w.id}"`, where);
    return {
      true: t.true as WindowTexts['true'],
      wrong: t.wrong as WindowTexts['wrong'],
      distractorTrajectories: (t.distractor_trajectories ?? t.distractorTrajectories) as WindowTexts['distractorTrajectories'],
      summary: t.summary as string | undefined,
      counterfactual: t.counterfactual as WindowTexts['counterfactual'],
    };
  };
}

/** The writing prompt of one window (the paper's method: true state first, then confusable wrong ones). */
export function writerPrompt(d: Dialogue, window: Pick<DialogueWindow, 'id' | 'lines'>, recipient: string): string {
  return [
    'You are a DialToM item writer.',
    `Dialogue (${d.taskDesc || d.domain}${d.topic ? `, ${d.topic}` : ''}):`,
    window.lines.join('\n'),
    '',
    `1. For the ${recipient} at the end of this excerpt, write the true ${DIALTOM_STATES.join(', ')} as one first-person sentence each ("I believe ...", "I want ...", "I will ...", "I feel ...", "I know ...", "I view ...").`,
    '2. For each state, write three confusable but wrong alternatives in the same style.',
    '3. Write three alternative continuations of the dialogue (about four lines each, "speaker: text") that would follow if the wrong states were true.',
    '4. Summarise the excerpt in two sentences.',
    'Reply with JSON only: {"true": {state: text}, "wrong": {state: [3 texts]}, "distractor_trajectories": [3 texts], "summary": text}',
  ].join('\n');
}
