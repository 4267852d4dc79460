// DialToM items written with the paper's own prompts (Appendices K.1 and K.2), through the
// author's caller (call cache, retries, any provider). Per window:
//   - per mental state, the "Optimal Mental State and Distractors" prompt: four answers, the first
//     the true state, the other three the wrong options (6 calls);
//   - per distractor k, the "Dialogue Trajectory Distractors" prompt with the true states, the
//     dialogue's own next turns and the profile of every state's k-th wrong option (3 calls; none
//     for the last window, which has no continuation and so no prospective item);
//   - per mental state, the "Counterfactuals" prompt: a state contrary to the true one (6 calls),
//     the counterfactual profile;
//   - the "Summary of conversation" prompt: a summary in less than 50 words (1 call).
// A reply that does not read (fewer than four answers with the state's prefix, fewer turns than
// the format, a counterfactual without the prefix, a summary of 50 words or more) is answered with
// what is wrong and asked again (`retries` times). Options that still do not read stop the writing
// with an error naming the window; a summary that does not is refused (left out) and logged.

import { InputError } from '../../../core/index.js';
import type { Store } from '../../../store/index.js';
import { authorCaller, type Registry } from '../../../app/index.js';
import { writingPrompts } from '../manifest.js';
import { type Dialogue, DIALTOM_STATES, type DialtomState, type WindowTexts, type Writer } from '../suites/dialtom-builder.js';
import { DIALTOM_ROLES } from '../suites/dialtom.js';
import {
  fillPrompt,
  loadStateFormats,
  loadWritingPrompt,
  type Reading,
  readCounterfactual,
  readStateAnswers,
  readSummary,
  readTrajectory,
} from '../suites/writing-prompts.js';
import { askChecked, emptyLog, type WritingLog } from './ask-checked.js';

export type WritingPromptName = keyof typeof writingPrompts;

export interface PaperWriterOptions {
  store: Store;
  model: string;
  apiKeyEnv?: string;
  registry?: Registry;
  /** Follow-ups after a reply that does not read (default 2). */
  retries?: number;
  /** Sampling temperature of the writer (default 0). */
  temperature?: number;
  /** Prompt files in place of the registered ones, by name. */
  prompts?: Partial<Record<WritingPromptName, string>>;
}

const FALLBACK_ROLES = { initiator: 'Initiator', recipient: 'Recipient', session: 'Conversation' };
const profileLines = (states: Record<DialtomState, string>) => DIALTOM_STATES.map((s) => `${s}: ${states[s]}`).join('\n');

/** A writer with the paper's prompts, and a summariser for conversations (released items); both log what they asked. */
export function paperDialtomWriter(opts: PaperWriterOptions): {
  writer: Writer;
  summarize: (conversation: string, where: string) => Promise<string | undefined>;
  log: WritingLog;
  close: () => Promise<void>;
} {
  const file = (name: WritingPromptName) => opts.prompts?.[name] ?? writingPrompts[name];
  const formats = loadStateFormats(file('formats'));
  const prompts = {
    states: loadWritingPrompt(file('states'), [
      'recipient',
      'initiator',
      'topic',
      'session',
      'conversation',
      'state',
      'question',
      'prefix',
    ]),
    trajectory: loadWritingPrompt(file('trajectory'), [
      'conversation',
      'recipient',
      'correct_states',
      'trajectory',
      'distractor_states',
      'format',
    ]),
    counterfactual: loadWritingPrompt(file('counterfactual'), ['state', 'recipient', 'conversation', 'current', 'prefix']),
    summary: loadWritingPrompt(file('summary'), ['conversation']),
  };
  const retries = opts.retries ?? 2;
  const { model, caller, factory } = authorCaller(opts, opts.temperature ?? 0);
  const log = emptyLog();
  const ask = <T>(prompt: string, read: (reply: string) => Reading<T>) => askChecked(caller, prompt, read, retries, log);
  const must = async <T>(where: string, prompt: string, read: (reply: string) => Reading<T>): Promise<T> => {
    const { reading, attempts } = await ask(prompt, read);
    if ('ok' in reading) return reading.ok;
    throw new InputError(`${where}: the writer's reply does not read after ${attempts} attempt(s): ${reading.problem}`);
  };
  const summarize = async (conversation: string, where: string) => {
    const { reading, attempts } = await ask(fillPrompt(prompts.summary, { conversation }), readSummary);
    if ('ok' in reading) return reading.ok;
    log.refused.push({ window: where, what: 'summary', problem: reading.problem, attempts });
    return undefined;
  };
  const writer: Writer = async (d: Dialogue, w) => {
    const roles = DIALTOM_ROLES[d.domain] ?? FALLBACK_ROLES;
    const conversation = w.lines.join('\n');
    const withRole = (t: string) => t.replaceAll('{initiator}', roles.initiator);
    const prefix = (s: DialtomState) => withRole(formats.prefixes[s]);
    const answers = await Promise.all(
      DIALTOM_STATES.map((state) =>
        must(
          `window ${w.id}, ${state}`,
          fillPrompt(prompts.states, {
            recipient: roles.recipient,
            initiator: roles.initiator,
            topic: d.topic,
            session: (d.taskDesc || roles.session).replace(/\s+session$/i, ''),
            conversation,
            state,
            question: withRole(formats.questions[state]),
            prefix: prefix(state),
          }),
          (reply) => readStateAnswers(reply, state, prefix(state)),
        ),
      ),
    );
    const truth = Object.fromEntries(DIALTOM_STATES.map((s, i) => [s, answers[i]![0]])) as Record<DialtomState, string>;
    const wrong = Object.fromEntries(DIALTOM_STATES.map((s, i) => [s, answers[i]!.slice(1)])) as WindowTexts['wrong'];
    const format = w.next.map((turn, i) => `${turn.split(':')[0]!.trim()}: {dialogue ${i + 1}}`).join('\n');
    const [trajectories, counterfactuals, summary] = await Promise.all([
      Promise.all(
        [0, 1, 2].map((k) =>
          w.next.length === 0
            ? Promise.resolve('')
            : must(
                `window ${w.id}, distractor trajectory ${k + 1}`,
                fillPrompt(prompts.trajectory, {
                  conversation,
                  recipient: roles.recipient,
                  correct_states: profileLines(truth),
                  trajectory: w.next.join('\n'),
                  distractor_states: profileLines(
                    Object.fromEntries(DIALTOM_STATES.map((s) => [s, wrong[s][k]])) as Record<DialtomState, string>,
                  ),
                  format,
                }),
                (reply) => readTrajectory(reply, w.next.length),
              ),
        ),
      ),
      Promise.all(
        DIALTOM_STATES.map((state) =>
          must(
            `window ${w.id}, counterfactual ${state}`,
            fillPrompt(prompts.counterfactual, {
              state,
              recipient: roles.recipient,
              conversation,
              current: truth[state],
              prefix: prefix(state),
            }),
            (reply) => readCounterfactual(reply, state, prefix(state)),
          ),
        ),
      ),
      summarize(conversation, w.id),
    ]);
    return {
      true: truth,
      wrong,
      distractorTrajectories: trajectories as [string, string, string],
      counterfactual: Object.fromEntries(DIALTOM_STATES.map((s, i) => [s, counterfactuals[i]!])) as Record<DialtomState, string>,
      ...(summary !== undefined ? { summary } : {}),
    };
  };
  return {
    writer,
    summarize,
    log,
    close: async () => {
      try {
        await factory.settle();
      } finally {
        await model.close?.();
      }
    },
  };
}
