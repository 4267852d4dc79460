// biome-ignore-all lint/performance/useDomNodeTextContent: these are Playwright locators' innerText (rendered text), not DOM nodes
// The episode replay shows who knows and thinks what after each turn: a false-belief episode
// (agent_0 leaves the kitchen, agent_1 moves the cup into the fridge, then tells agent_2) run
// through the real runner by a scripted subject, replayed from the store (agent_0 loses where
// the cup is when it moves unseen and keeps a false belief; agent_2 learns it from the message),
// and shown by the viewer in Debian's Chromium, row by agent, step by step.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, defineProvider, evaluate, openStore, type ChatModel } from '../src/index.js';
import { storedEpisodes, taskOfItem } from '../src/studies/enacttom/index.js';
import { replayEpisode, type EpisodeView } from '../src/studies/enacttom/view/episode-replay.js';
import { startViewer, type Viewer } from '../src/view/index.js';
import { artifact, launchChromium } from './helpers/browser.js';

const RAW = {
  task_id: 'moved-cup',
  title: 'the moved cup',
  category: 'cooperative',
  task: 'Put cup_1 inside fridge_3.',
  agent_secrets: { agent_0: [], agent_1: [], agent_2: [] },
  problem_pddl: `(define (problem moved) (:domain enacttom)
    (:objects agent_0 agent_1 agent_2 - agent kitchen_1 hall_1 - room cup_1 - object table_1 fridge_3 bench_2 - furniture)
    (:init (agent_in_room agent_0 kitchen_1) (agent_in_room agent_1 kitchen_1) (agent_in_room agent_2 hall_1)
      (is_in_room table_1 kitchen_1) (is_in_room fridge_3 kitchen_1) (is_in_room bench_2 hall_1)
      (is_closed fridge_3) (is_on_top cup_1 table_1))
    (:goal (is_inside cup_1 fridge_3)))`,
  turn_limit: 6,
};
const SCRIPT: Record<string, string[]> = {
  agent_0: ['Navigate[hall_1]', 'Wait', 'Wait', 'FindObjectTool[cup]', 'Done'],
  agent_1: [
    'Wait',
    'Pick[cup_1]',
    'Open[fridge_3]',
    'Place[cup_1, within, fridge_3]',
    'Communicate[@agent_2 cup_1 is inside fridge_3]',
    'Done',
  ],
  agent_2: ['Wait', 'Wait', 'Wait', 'Wait', 'Wait', 'Done'],
};

/** A subject that plays SCRIPT turn by turn and answers every probe "unknown". */
const scripted = defineProvider({
  prefix: 'scripted',
  form: 'scripted:NAME',
  create: (name, spec): ChatModel => ({
    spec,
    provider: 'scripted',
    model: name,
    endpoint: 'scripted',
    local: true,
    async chat(req) {
      const text = (i: number) => {
        const m = req.messages.at(i);
        return typeof m?.content === 'string' ? m.content : '';
      };
      const agent = /You are (agent_\d+)/.exec(text(0))![1]!;
      const turn = /^Turn (\d+) of/.exec(text(-1));
      const reply = turn ? (SCRIPT[agent]![Number(turn[1]) - 1] ?? 'Done') : '{"answer": "unknown"}';
      return { text: reply, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 };
    },
  }),
});

let dir: string;
let view: EpisodeView;
let subjectId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mindscope-replay-minds-'));
  const file = join(dir, 'tasks.json');
  writeFileSync(file, JSON.stringify([RAW]));
  const registry = createRegistry();
  registry.providers.add(scripted);
  const store = await openStore(join(dir, 'm.db'));
  try {
    await evaluate({ suites: ['enacttom'], data: file, models: ['scripted:cup'] }, { store, registry, runId: 'cup' });
    const [episode] = await storedEpisodes(store, 'cup');
    subjectId = episode!.subjectId;
    view = replayEpisode(taskOfItem((await store.getItem(episode!.itemHash))!), episode!.detail);
  } finally {
    await store.close();
  }
}, 60_000);

/** The replay step of an agent's turn in a round. */
const stepOf = (agent: string, round: number) => view.replay.findIndex((s) => s.turn.agent === agent && s.turn.round === round);
const mind = (step: number, agent: string) => view.replay[step]!.minds.find((m) => m.agent === agent)!;

describe('the replay of an episode shows who knows what after each turn', () => {
  it('starts from what each agent sees and was told', () => {
    const start = (agent: string) => view.start!.minds.find((m) => m.agent === agent)!;
    expect(start('agent_0')).toEqual({
      agent: 'agent_0',
      knows: ['the goal needs (is_inside cup_1 fridge_3)', 'where cup_1 is'],
      thinks: [{ text: 'cup_1 on table_1' }, { text: 'fridge_3 closed' }, { text: 'agent_1 in kitchen_1' }],
    });
    expect(start('agent_2')).toEqual({
      agent: 'agent_2',
      knows: ['the goal needs (is_inside cup_1 fridge_3)'],
      thinks: [],
    });
  });

  it('a move nobody saw makes knowledge stale and the belief false; a message makes the recipient learn', () => {
    // agent_1 picks the cup up while agent_0 is in the hall: agent_0 no longer knows where it is.
    const pick = stepOf('agent_1', 2);
    expect(view.replay[pick]!.turn.action).toBe('Pick[cup_1]');
    expect(mind(pick, 'agent_0')).toMatchObject({ learned: [], lost: ['where cup_1 is'] });
    expect(mind(pick, 'agent_0').thinks[0]).toEqual({ text: 'cup_1 on table_1', false: 'held by agent_1' });
    const place = stepOf('agent_1', 4);
    expect(mind(place, 'agent_0').thinks.filter((t) => t.false)).toEqual([
      { text: 'cup_1 on table_1', false: 'inside fridge_3' },
      { text: 'fridge_3 closed', false: 'open' },
    ]);
    expect(mind(place, 'agent_1').thinks.filter((t) => t.false)).toEqual([]);
    const told = stepOf('agent_1', 5);
    expect(view.replay[told]!.turn.delivered).toEqual(['agent_2']);
    expect(mind(told, 'agent_2')).toMatchObject({
      learned: ['where cup_1 is'],
      lost: [],
      thinks: [{ text: 'cup_1 inside fridge_3' }, { text: 'agent_0 in hall_1' }],
    });
    // A Find turn is answered from the agent's own (stale) belief and changes no mind.
    const find = stepOf('agent_0', 4);
    expect(view.replay[find]!.turn.observation).toBe('cup_1: on table_1 in kitchen_1 (as far as you know).');
    expect(view.replay[find]!.minds.every((m) => m.learned.length === 0 && m.lost.length === 0)).toBe(true);
  });
});

describe('the viewer shows the minds beside each turn', () => {
  let viewer: Viewer;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    viewer = await startViewer({ db: join(dir, 'm.db') });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await viewer?.close();
  });

  it('one row per agent; new knowledge and false beliefs marked, step by step', async () => {
    await page.goto(`${viewer.url}#/trial/cup?subject=${subjectId}&suite=enacttom&item=moved-cup&replicate=0`);
    await page.locator('.episode .minds-table').waitFor();
    const row = (agent: string) => page.locator(`.episode .minds-table tr.mind[data-agent="${agent}"]`);
    expect(await page.locator('.episode .minds-table tr.mind .agent').allInnerTexts()).toEqual(['agent_0', 'agent_1', 'agent_2']);
    const goTo = async (step: number) => {
      const at = Number((await page.locator('.episode .step').innerText()).split(' ')[1]);
      for (let i = at; i < step + 1; i++) await page.locator('.episode button.next').click();
      expect(await page.locator('.episode .step').innerText()).toBe(`turn ${step + 1} of ${view.replay.length}`);
    };
    await goTo(stepOf('agent_1', 2));
    expect(await row('agent_0').locator('.lost').innerText()).toBe('no longer knows: where cup_1 is');
    await goTo(stepOf('agent_1', 4));
    expect(await row('agent_0').locator('.false-belief').allInnerTexts()).toEqual([
      'cup_1 on table_1 (false: inside fridge_3)',
      'fridge_3 closed (false: open)',
    ]);
    expect(await row('agent_1').locator('.false-belief').count()).toBe(0);
    await goTo(stepOf('agent_1', 5));
    expect(await row('agent_2').locator('.learned').allInnerTexts()).toEqual(['new: where cup_1 is']);
    expect(await row('agent_2').locator('.thinks li').allInnerTexts()).toEqual(['cup_1 inside fridge_3', 'agent_0 in hall_1']);
    await page.screenshot({ path: artifact('view-episode-minds.png'), clip: { x: 0, y: 0, width: 1280, height: 900 } });
  });
});
