// DialToM (three domains: MI counselling, ESC emotional support, PFG persuasion).
//   retrospective      - the dialogue, then: which statement is the recipient's <attribute>? (Literal ToM)
//   prospective        - the recipient's six-state profile only, then: which continuation fits? (Functional ToM)
//   prospective-easy   - the same, with distractors from other dialogues
//   counterfactual     - the profile replaced by contradictory states; a fifth option "None of the
//                        above" is then the only right answer (the paper's Table 7 probe)
// Continuation options are put in a seeded order fixed per item, so the right one is not always first.
// Items carry the fields DialToM's published prompts name (see templates/dialtom-*.yaml):
// initiator and recipient (capitalised as the released code writes them), session (task_desc),
// topic, state, and for the prospective sets the profile as "Belief: ..." lines, the dialogue
// window as {conversation} and, where the file holds one, its {summary} (the context-degradation
// prompts' fields: the released files hold the windows but no summaries).

import { basename, join } from 'node:path';
import type { Category } from '../../../core/index.js';
import { createRng, deriveSeed, InputError } from '../../../core/index.js';
import { field, listFiles, mcqItem, resolveDataDir, type LoadResult } from '../../../suites/index.js';
import { readJson } from '../../../core/index.js';

export type DialtomTask = 'retrospective' | 'prospective' | 'prospective-easy' | 'counterfactual';

export const DIALTOM_ATTRIBUTES = ['Belief', 'Desires', 'Intentions', 'Emotions', 'Knowledge', 'Trust'] as const;
const CATEGORY: Record<string, Category> = {
  Belief: 'belief',
  Desires: 'desire',
  Intentions: 'intention',
  Emotions: 'emotion',
  Knowledge: 'knowledge',
  Trust: 'trust',
};
/** The speaker whose mental states the items describe, per domain. */
const RECIPIENT: Record<string, string> = { MI: 'client', ESC: 'seeker', PFG: 'persuadee' };
/** The two roles as the released code names them in its prompts (utils.py agent1, agent2). */
export const DIALTOM_ROLES: Record<string, { initiator: string; recipient: string; session: string }> = {
  MI: { initiator: 'Counselor', recipient: 'Client', session: 'Counseling Session' },
  ESC: { initiator: 'Supporter', recipient: 'Seeker', session: 'Emotional Support Conversation' },
  PFG: { initiator: 'Persuader', recipient: 'Persuadee', session: 'Persuasion Conversation' },
};
/** The counterfactual probe's fifth option, as counterfactual_test.py writes it. */
export const NONE_OF_THE_ABOVE = 'None of the above.';

interface Record_ {
  id: string;
  ctx: string[];
  state: string;
  topic?: string;
  task_desc?: string;
  correct_option: Record<string, string>;
  options: Record<string, Record<string, string>>;
  correct_action?: string;
  distractors?: string[];
}

function check(rec: Record_, where: string, prospective: boolean): void {
  for (const name of ['id', 'state'] as const) field(rec as unknown as Record<string, unknown>, name, where);
  if (!Array.isArray(rec.ctx)) throw new InputError('"ctx" must be a list of turns', where);
  rec.ctx.forEach((turn, i) => {
    if (typeof turn !== 'string' || !turn.trim()) throw new InputError(`turn ${i} of "ctx" is empty`, where);
  });
  if (!CATEGORY[rec.state]) throw new InputError(`unknown state "${rec.state}" (expected one of ${DIALTOM_ATTRIBUTES.join(', ')})`, where);
  for (const a of DIALTOM_ATTRIBUTES) {
    const letter = rec.correct_option?.[a];
    if (!letter || !rec.options?.[a]?.[letter])
      throw new InputError(`attribute ${a}: the correct option "${letter}" is not among its options`, where);
  }
  if (prospective) {
    if (typeof rec.correct_action !== 'string' || !rec.correct_action.trim()) throw new InputError('missing "correct_action"', where);
    if (!Array.isArray(rec.distractors) || rec.distractors.length !== 3)
      throw new InputError('"distractors" must hold three continuations', where);
  }
}

/** The recipient's six correct states, one line each. */
function profile(states: string[], role: string): string {
  return `The ${role} in this conversation has the following mental state:\n${DIALTOM_ATTRIBUTES.map((a, i) => `- ${a}: ${states[i]}`).join('\n')}`;
}

/** The states as the published prompts list them: "Belief: I believe ..." one per line. */
const profileLines = (states: string[]) => DIALTOM_ATTRIBUTES.map((a, i) => `${a}: ${states[i]}`).join('\n');

/** Load a DialToM task (retrospective, prospective, prospective-easy or counterfactual) from the released files. */
export function loadDialtom(dataRoot: string, task: DialtomTask): LoadResult {
  const dir = resolveDataDir(dataRoot, 'dialtom');
  const dataDir = resolveDataDir(dir, 'data');
  const fileTask = task === 'counterfactual' ? 'prospective' : task;
  const files = listFiles(dataDir, new RegExp(`^([A-Za-z0-9-]+)_${fileTask}_verified\\.json$`), `DOMAIN_${fileTask}_verified.json files`);
  const items: LoadResult['items'] = [];
  const warnings: string[] = [];
  for (const file of files) {
    const domain = basename(file).split('_')[0]!;
    const role = RECIPIENT[domain] ?? 'recipient';
    const data = readJson(file);
    if (!Array.isArray(data)) throw new InputError('expected a JSON list of items', file);
    const counterfactuals =
      task === 'counterfactual'
        ? (readJson(join(resolveDataDir(dir, 'counterfactual_data'), `${domain}_counterfact.json`)) as Record<string, string[]>)
        : undefined;
    data.forEach((raw, i) => {
      const rec = raw as Record_;
      const where = `${file} [item ${i}]`;
      check(rec, where, task !== 'retrospective');
      const roles = DIALTOM_ROLES[domain] ?? { initiator: 'Initiator', recipient: 'Recipient', session: 'Conversation' };
      const base = {
        domain,
        task,
        state: rec.state,
        topic: rec.topic,
        taskDesc: rec.task_desc,
        originalLabel: rec.state,
        dialogueId: rec.id,
        initiator: roles.initiator,
        recipient: roles.recipient,
        session: rec.task_desc ?? roles.session,
      };
      const category = CATEGORY[rec.state]!;
      if (task === 'retrospective') {
        const opts = rec.options[rec.state]!;
        const letters = Object.keys(opts).sort();
        items.push(
          mcqItem({
            suite: `dialtom-${task}`,
            id: `${domain}/${rec.id}/${rec.state}`,
            category,
            ability: `${domain} ${rec.state}`,
            context: rec.ctx.join('\n'),
            question: `At the end of this ${rec.task_desc ?? 'conversation'}, which statement best describes the ${role}'s ${rec.state.toLowerCase()}?`,
            options: letters.map((l) => opts[l]!),
            answerIndex: letters.indexOf(rec.correct_option[rec.state]!),
            meta: base,
            file: where,
          }),
        );
        return;
      }
      let states = DIALTOM_ATTRIBUTES.map((a) => rec.options[a]![rec.correct_option[a]!]!);
      if (counterfactuals) {
        const cf = counterfactuals[`${rec.id}_${rec.state}`];
        if (!Array.isArray(cf) || cf.length !== 6) {
          warnings.push(`${where}: no counterfactual profile "${rec.id}_${rec.state}"; item left out`);
          return;
        }
        states = cf;
      }
      const continuations = createRng(deriveSeed('dialtom-options', domain, rec.id, rec.state)).shuffle([
        rec.correct_action!,
        ...rec.distractors!,
      ]);
      const options = counterfactuals ? [...continuations, NONE_OF_THE_ABOVE] : continuations;
      const mode = (rec as { context_mode?: string }).context_mode;
      const summary = (rec as { summary?: string }).summary;
      items.push(
        mcqItem({
          suite: `dialtom-${task}`,
          id: `${domain}/${rec.id}/${rec.state}`,
          category,
          ability: `${domain} ${task}`,
          // Context degradation variants (dialtom build): history or a summary before the states.
          context: [
            mode === 'history+states' ? rec.ctx.join('\n') : '',
            mode === 'summary+states' ? String(summary ?? '') : '',
            profile(states, role),
          ]
            .filter(Boolean)
            .join('\n\n'),
          question: `Which continuation of the conversation is the most consistent with the ${role}'s mental state?${counterfactuals ? ' If none is consistent, choose "None of the above".' : ''}`,
          options,
          answerIndex: counterfactuals ? options.length - 1 : options.indexOf(rec.correct_action!),
          meta: {
            ...base,
            profile: profileLines(states),
            // The context-degradation prompts' fields: the dialogue window the continuation
            // follows, and its summary where the file holds one (the released files hold none).
            conversation: rec.ctx.join('\n'),
            ...(typeof summary === 'string' && summary.trim() ? { summary } : {}),
          },
          file: where,
        }),
      );
    });
  }
  return { items, warnings };
}
