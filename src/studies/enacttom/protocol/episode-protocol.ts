// The episode protocol: one embodied task run as a multi-agent episode. Each round every agent
// that has not finished gets its observation, its secrets, the messages delivered to it and the
// rules, and returns one action in the documented text format; a malformed or impossible action
// gets an error observation and uses the turn. Agents act in order within a round; messages
// are delivered at the recipient's next turn, and who-knows-what is tracked throughout (a free-
// text message conveys the sender's true knowledge whose entities it names), as is what each
// agent thinks, stale beliefs included (beliefs.ts). The episode ends when every agent is done
// or at the turn limit. Then come the literal probes (literal-probes.ts): each agent is asked in
// words what a partner thinks or knows, and the answer is right when it matches the partner's
// tracked belief, not the world.
// Score: functional success (the goal with its K parts stripped holds at the end); the detail
// holds the probes, private goals, and the transcript turn by turn.

import {
  EpisodeMinds,
  evaluateFormula,
  formatAction,
  formatFormula,
  holds,
  kDepth,
  parseAction,
  stripEpistemic,
  TaskSearch,
  type EmbodiedTask,
} from '../world/index.js';
import { withInfo, type Item, type Task, type TrialContext, type TrialModel } from '../../../core/index.js';
import { EPISODE_RECORDS, type EpisodeDetail, type EpisodeScoreDetail, type EpisodeTurn, type ProbeResult } from './records.js';
import { defineProtocol } from '../../../protocols/index.js';
import { EPISODE_INFO, EPISODE_POLICIES } from './reference-teams.js';
import { probePrompt, systemPrompt, turnPrompt } from './episode-prompt.js';
import { contrastProbes, goalProbes, partnerAnswer, readProbeAnswer, worldAnswer, type ProbeWorld } from './literal-probes.js';
import { episodeOptions, revealSecrets } from './secrets-revealed.js';

export const EPISODE_SCORER = EPISODE_RECORDS.scorer;

export interface EpisodePayload {
  task: EmbodiedTask;
}

/** Play one embodied episode: agents act in turn until done or the turn limit, then score it. */
export async function runEpisode(task: EmbodiedTask, model: TrialModel, ctx: TrialContext): Promise<EpisodeDetail> {
  const search = new TaskSearch(task);
  const { world, universe } = search;
  const ws = world.initialState();
  const minds = new EpisodeMinds(universe, ws);
  const { knowledge: ks, beliefs } = minds;
  const history: string[][] = world.agents.map(() => []);
  const received: string[][] = world.agents.map(() => []);
  let inbox: string[][] = world.agents.map(() => []);
  const done = new Uint8Array(world.agents.length);
  const turns: EpisodeTurn[] = [];
  const systems = world.agents.map((a) => systemPrompt(task, a));
  let malformed = 0;
  let round = 0;
  for (round = 1; round <= task.turnLimit && !done.every(Boolean); round++) {
    const nextInbox: string[][] = world.agents.map(() => []);
    for (let a = 0; a < world.agents.length; a++) {
      if (done[a]) continue;
      const agent = world.agents[a]!;
      const user = turnPrompt({
        round,
        limit: task.turnLimit,
        history: history[a]!.slice(-6),
        inbox: inbox[a]!,
        view: world.describe(ws, a),
      });
      const response = await model.chat(
        [
          { role: 'system', content: systems[a]! },
          { role: 'user', content: user },
        ],
        {},
        { replicateSeed: ctx.seed, info: withInfo(EPISODE_INFO, { task, agent, round, phase: 'act', state: ws, knowledge: ks, beliefs }) },
      );
      const parsed = parseAction(response.text);
      const turn: EpisodeTurn = { round, agent, reply: response.text, action: null, ok: false, observation: '' };
      if (!parsed.ok) {
        malformed++;
        turn.observation = parsed.error;
      } else {
        turn.action = formatAction(parsed.action);
        const out = minds.act(ws, a, parsed.action);
        turn.ok = out.ok;
        turn.observation = out.text;
        if (out.ok) {
          if (parsed.action.type === 'Communicate' && out.deliveredTo) {
            for (const r of out.deliveredTo) {
              nextInbox[r]!.push(`${agent}: ${parsed.action.text}`);
              received[r]!.push(`turn ${round}, ${agent}: ${parsed.action.text}`);
            }
            turn.delivered = out.deliveredTo.map((r) => world.agents[r]!);
            turn.conveyed = out.conveyed.map((i) => universe.describe(i));
          }
          if (parsed.action.type === 'Done') done[a] = 1;
        }
      }
      history[a]!.push(`turn ${round}: ${turn.action ?? '(no valid action)'} -> ${turn.observation}`);
      turns.push(turn);
    }
    // Messages sent this round reach agents who act before the sender next round too.
    inbox = nextInbox;
  }
  const rounds = round - 1;
  const functional = evaluateFormula(
    stripEpistemic(task.goal),
    (p) => holds(world, ws, p),
    () => true,
  );
  const epistemic = search.goalHolds(task.goal, ws, ks);
  const end: ProbeWorld = { world, state: ws, knowledge: ks, beliefs };
  const goal = goalProbes(task, world);
  const probes: ProbeResult[] = [];
  for (const probe of [...goal, ...contrastProbes(task, end, goal)]) {
    const a = world.agents.indexOf(probe.asked);
    const response = await model.chat(
      [
        { role: 'system', content: systems[a]! },
        {
          role: 'user',
          content: probePrompt({ history: history[a]!, received: received[a]!, view: world.describe(ws, a), question: probe.question }),
        },
      ],
      {},
      {
        replicateSeed: ctx.seed,
        info: withInfo(EPISODE_INFO, { task, agent: probe.asked, round: rounds, phase: 'probe', probe, state: ws, knowledge: ks, beliefs }),
      },
    );
    const answer = readProbeAnswer(probe, response.text, world);
    const expected = partnerAnswer(probe, end);
    probes.push({
      agent: probe.asked,
      about: probe.about,
      kind: probe.kind,
      source: probe.source,
      formula: formatFormula(probe.formula),
      question: probe.question,
      reply: response.text,
      answer,
      expected,
      worldAnswer: worldAnswer(probe, end),
      correct: answer === expected,
    });
  }
  const correct = probes.filter((p) => p.correct).length;
  const divergent = probes.filter((p) => p.expected !== p.worldAnswer);
  const privateGoals: Record<string, boolean> = {};
  for (const ag of task.agents) {
    if (ag.privateGoal)
      privateGoals[ag.id] = evaluateFormula(
        stripEpistemic(ag.privateGoal),
        (p) => holds(world, ws, p),
        () => true,
      );
  }
  return {
    taskId: task.id,
    category: task.category,
    kDepth: kDepth(task.goal),
    functional,
    epistemic,
    rounds,
    probes,
    literal: {
      correct,
      total: probes.length,
      allCorrect: correct === probes.length,
      form: 'partner-belief',
      divergent: { correct: divergent.filter((p) => p.correct).length, total: divergent.length },
    },
    privateGoals,
    malformed,
    turns,
  };
}

/** An episode task over a suite's embodied tasks; `options.episode.secrets: revealed` plays each with every secret revealed. */
export function createEpisodeTask(suite: string, items: Item<EpisodePayload>[], options?: Record<string, unknown>): Task<EpisodePayload> {
  const revealed = episodeOptions(options).secrets === 'revealed';
  return {
    suite,
    items,
    records: EPISODE_RECORDS,
    async execute(item, model, ctx) {
      const task = item.payload.task;
      const detail = await runEpisode(revealed ? revealSecrets(task) : task, model, ctx);
      if (revealed) detail.condition = 'secrets-revealed';
      const score: EpisodeScoreDetail = {
        epistemic: detail.epistemic,
        literalCorrect: detail.literal.correct,
        literalTotal: detail.literal.total,
        literalAll: detail.literal.allCorrect,
        literalForm: detail.literal.form,
        rounds: detail.rounds,
        malformed: detail.malformed,
        category: detail.category,
        kDepth: detail.kDepth,
      };
      return { detail, score: { scorer: EPISODE_SCORER, value: detail.functional ? 1 : 0, detail: score } };
    },
  };
}

/** Embodied multi-agent episodes (EnactToM): functional success, literal probes, turn-by-turn transcript. */
export const episodeProtocol = defineProtocol<EpisodePayload>({
  name: 'episode',
  describe:
    'embodied multi-agent episodes in the text world, then literal probes: each agent asked what a partner thinks or knows (EnactToM)',
  records: EPISODE_RECORDS,
  policies: EPISODE_POLICIES,
  answer: (r) => {
    const probes = (r as EpisodeDetail).probes;
    return { parsed: JSON.stringify(probes.map((p) => p.answer)), gold: JSON.stringify(probes.map((p) => p.expected)) };
  },
  createTask: (suite, items, settings) => createEpisodeTask(suite, items, settings.options),
});
