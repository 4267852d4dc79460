// A minimal study written as a third party would write one, outside mindscope's source and on its
// public entry points only: the classic change-of-location false-belief task (Wimmer & Perner
// 1983) as a protocol with its record schema, a seeded suite, a command (`mindscope sally-anne`),
// a report section and a viewer panel. `toy.config.yaml` lists it as a plugin.

import { callInfoKey, defineProtocol, definePlugin, defineSuite, readInfo, withInfo, type Item } from 'mindscope';
import { z } from 'zod';

/** One story: where the object was put, where it ends up, and whether the protagonist saw it moved. */
interface Scene {
  name: string;
  object: string;
  first: string;
  second: string;
  /** The protagonist watched the move (true belief) or was away (false belief). */
  saw: boolean;
}

/** Where the protagonist will look: where they last saw the object. */
const whereTheyLook = (s: Scene) => (s.saw ? s.second : s.first);

const RECORDS = {
  protocol: 'sally-anne',
  scorer: 'sally-anne-exact',
  detail: z.object({
    reply: z.string(),
    answer: z.string().nullable(),
    scene: z.object({ first: z.string(), second: z.string(), saw: z.boolean() }),
  }),
  score: z.object({ expected: z.string() }),
};
const INFO = callInfoKey<Scene>('sally-anne');

const story = (s: Scene) =>
  `${s.name} puts the ${s.object} in the ${s.first} and ${s.saw ? 'stays in the room' : 'leaves the room'}. ` +
  `While ${s.saw ? `${s.name} watches` : `${s.name} is away`}, Anne moves the ${s.object} to the ${s.second}. ` +
  `${s.name} comes back. Where will ${s.name} look for the ${s.object} first? Reply "Answer: PLACE".`;

const sallyAnne = defineProtocol<Scene>({
  name: 'sally-anne',
  describe: 'change-of-location false belief: where will the protagonist look first?',
  records: RECORDS,
  // agent:oracle on this protocol reads the scene from the call's side information.
  policies: {
    oracle: {
      describe: 'answers from the scene',
      reply: (ctx) => {
        const s = readInfo(ctx.info, INFO);
        return s && `Answer: ${whereTheyLook(s)}`;
      },
    },
  },
  answer: (r) => {
    const d = r as z.infer<typeof RECORDS.detail>;
    return { reply: d.reply, parsed: d.answer };
  },
  createTask: (suite, items) => ({
    suite,
    items,
    records: RECORDS,
    async execute(item, model, ctx) {
      const s = item.payload;
      const r = await model.chat([{ role: 'user', content: story(s) }], {}, { replicateSeed: ctx.seed, info: withInfo(INFO, s) });
      const answer = /Answer:\s*(?:the\s+)?(\w+)/i.exec(r.text)?.[1]?.toLowerCase() ?? null;
      const expected = whereTheyLook(s);
      return {
        detail: { reply: r.text, answer, scene: { first: s.first, second: s.second, saw: s.saw } },
        score: { scorer: RECORDS.scorer, value: answer === expected ? 1 : 0, detail: { expected } },
      };
    },
  }),
});

const NAMES = ['Sally', 'Max', 'Ana', 'Kofi'];
const OBJECTS = ['marble', 'chocolate', 'key', 'ball'];
const PLACES = ['basket', 'box', 'drawer', 'cupboard'];

const sallyAnneSuite = defineSuite<Scene>({
  id: 'sally-anne',
  describe: 'toy: change-of-location stories, half with a false belief (seeded)',
  protocol: sallyAnne,
  needsData: false,
  load: ({ seed, count }) => {
    const items: Item<Scene>[] = [];
    for (let i = 0; i < (count ?? 8); i++) {
      const k = i + seed;
      const first = PLACES[k % 4]!;
      const second = PLACES[(k + 1 + (i % 3)) % 4]!;
      const scene = { name: NAMES[k % 4]!, object: OBJECTS[(k * 3) % 4]!, first, second, saw: i % 2 === 0 };
      items.push({
        suite: 'sally-anne',
        id: `s${i}`,
        category: 'belief',
        ability: scene.saw ? 'true-belief' : 'false-belief',
        payload: scene,
        answer: whereTheyLook(scene),
        meta: {},
      });
    }
    return { items, warnings: [] };
  },
});

export default definePlugin({
  name: 'toy-study',
  protocols: [sallyAnne],
  suites: [sallyAnneSuite],
  commands: [
    {
      commands: [{ term: 'sally-anne [options]', description: 'toy study: accuracy on true- and false-belief stories of a stored run' }],
      load: async () => (await import('./command.js')).registerSallyAnne,
    },
  ],
  reportSections: [
    {
      title: 'Toy study: false belief',
      protocols: ['sally-anne'],
      render: async (ctx) => (await import('./report-section.js')).renderSection(ctx),
    },
  ],
  viewerPanels: [{ protocol: 'sally-anne', record: (t) => t.detail, script: new URL('./panel.js', import.meta.url) }],
});
