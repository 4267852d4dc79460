// generated-storyturn: seeded booklet-style StoryTurns with ground truth and feedback branches:
// diverse belief (where is it, where will she look, where is it really), perspective taking
// with a referent the listener cannot see (the "biggest apple"), second-order belief-desire
// with a "why" question, sarcasm versus sincere praise, and diverse desires whose second
// answer depends on the first (feedback on the previous answer). Stories are text-complete; the
// perspective-taking family also comes image-dependent, with a drawn picture (picture.ts).

import { createRng, type Rng } from '../../../core/index.js';
import type { StoryTurnStory } from '../protocol/storyturn.js';
import { applePicture } from './picture.js';

const NAMES = ['Mia', 'Sam', 'Lily', 'Tom', 'Ava', 'Leo', 'Zoe', 'Ben', 'Nora', 'Max'];
const THINGS = ['ball', 'toy car', 'book', 'doll', 'kite', 'puzzle'];
const PLACES = ['basket', 'box', 'drawer', 'cupboard', 'bag', 'chest'];
const TREATS: Array<[string, string]> = [
  ['cookie', 'apple'],
  ['cake', 'banana'],
  ['ice cream', 'orange'],
];
const GIFTS: Array<[string, string]> = [
  ['bike', 'puppy'],
  ['kite', 'guitar'],
  ['robot', 'kitten'],
];

type Family = (rng: Rng, id: string) => StoryTurnStory;

const story = (
  id: string,
  state: StoryTurnStory['state'],
  turns: StoryTurnStory['turns'],
  extra: Partial<StoryTurnStory> = {},
): StoryTurnStory => ({
  id,
  state,
  setting: 'text-complete',
  turns,
  images: {},
  status: 'approved',
  source: 'generated-storyturn',
  ...extra,
});

const diverseBelief: Family = (rng, id) => {
  const [a, b] = rng.shuffle(NAMES).slice(0, 2);
  const thing = rng.pick(THINGS);
  const [p1, p2] = rng.shuffle(PLACES).slice(0, 2);
  return story(id, 'belief', [
    {
      story: `${a} puts the ${thing} in the ${p1} and goes outside. While ${a} is away, ${b} moves the ${thing} to the ${p2}.`,
      feedback: '',
      question: `Where is the ${thing} now?`,
      image: '',
      answer: p2!,
    },
    {
      story: `${a} comes back to play with the ${thing}.`,
      feedback: `If right: Yes, the ${thing} is in the ${p2}.; If wrong: Actually, ${b} moved the ${thing} to the ${p2}.`,
      question: `Where will ${a} look for the ${thing} first?`,
      image: '',
      answer: p1!,
    },
    {
      story: `${a} opens the ${p1}.`,
      feedback: `If right: Yes, ${a} did not see ${b} move it.; If wrong: ${a} did not see ${b} move it, so ${a} still thinks it is in the ${p1}.`,
      question: `Where is the ${thing} really?`,
      image: '',
      answer: p2!,
    },
  ]);
};

const perspective =
  (withPicture: boolean): Family =>
  (rng, id) => {
    const [child] = rng.shuffle(NAMES);
    const hidden = 'big';
    const text = withPicture
      ? `${child} and Grandpa stand on opposite sides of an apple tree. Look at the picture: a leaf hides one apple from Grandpa.`
      : `Three apples hang on a tree: a small one, a medium one and a big one. ${child} and Grandpa stand on opposite sides of the tree, and a leaf hides the ${hidden} apple from Grandpa.`;
    const turns: StoryTurnStory['turns'] = [
      {
        story: text,
        feedback: '',
        question: 'Which apple is the biggest of all: the small, the medium or the big one?',
        image: withPicture ? 'img01' : '',
        answer: 'big',
      },
      {
        story: 'Grandpa says: "Please pick me the biggest apple you can see from where I stand."',
        feedback: 'If right: Yes, the big apple is the biggest of all.; If wrong: Look again: the big apple is the biggest of all.',
        question: `Which apple should ${child} pick for Grandpa?`,
        image: withPicture ? 'img01' : '',
        answer: 'medium',
      },
    ];
    return story(id, 'percept', turns, withPicture ? { setting: 'image-dependent', images: { img01: applePicture(hidden) } } : {});
  };

const secondOrder: Family = (rng, id) => {
  const child = rng.pick(NAMES);
  const [old, now] = rng.pick(GIFTS);
  return story(id, 'belief', [
    {
      story: `${child} tells Mom that ${child} wants a ${old} for the birthday.`,
      feedback: '',
      question: `What does ${child} want for the birthday?`,
      image: '',
      answer: old,
    },
    {
      story: `Later ${child} changes their mind and wants a ${now} instead. ${child} tells Dad, and Dad promises to tell Mom, but Dad forgets.`,
      feedback: `If right: Yes, at first ${child} wanted a ${old}.; If wrong: At first ${child} wanted a ${old}.`,
      question: `Does Mom know that ${child} now wants a ${now}? (yes or no)`,
      image: '',
      answer: 'no',
    },
    {
      story: `${child} thinks Dad told Mom.`,
      feedback: 'If right: Right, Mom never heard about it.; If wrong: Dad forgot, so Mom does not know.',
      question: `What does ${child} think Mom will give?`,
      image: '',
      answer: now,
    },
    {
      story: `On the birthday, Mom gives ${child} a ${old}.`,
      feedback: `If right: Yes, ${child} expects a ${now}.; If wrong: ${child} believes Mom knows about the ${now}.`,
      question: `Why is ${child} surprised?`,
      image: '',
      answer: 'thought dad told mom; thought mom knew; dad forgot',
    },
  ]);
};

const sarcasm: Family = (rng, id) => {
  const [a, b] = rng.shuffle(NAMES).slice(0, 2);
  const sarcastic = rng.next() < 0.5;
  const scene = sarcastic
    ? `${a}'s drawing falls into the mud. ${b} rolls their eyes and says: "Well, that looks great now!"`
    : `${a} finishes a drawing. ${b} smiles, hangs it on the wall and says: "That looks great!"`;
  return story(id, 'non-literal', [
    {
      story: scene,
      feedback: '',
      question: `Does ${b} really think the drawing looks great? (yes or no)`,
      image: '',
      answer: sarcastic ? 'no' : 'yes',
    },
    {
      story: `${a} looks at ${b}.`,
      feedback: `If right: Yes, look at what ${b} does.; If wrong: Look at what ${b} does while speaking.`,
      question: `Is ${b} being sarcastic? (yes or no)`,
      image: '',
      answer: sarcastic ? 'yes' : 'no',
    },
  ]);
};

const diverseDesire: Family = (rng, id) => {
  const child = rng.pick(NAMES);
  const [x, y] = rng.pick(TREATS);
  return story(id, 'desire', [
    {
      story: `For dessert you can choose a ${x} or an ${y}.`,
      feedback: '',
      question: `Which would you choose: the ${x} or the ${y}?`,
      image: '',
      answer: `${x}; ${y}`,
    },
    {
      story: `${child} can choose too, and ${child} likes something different from you.`,
      feedback: `If the previous answer is ${x}: ${child} does not want the ${x}.; If the previous answer is ${y}: ${child} does not want the ${y}.`,
      question: `Which one will ${child} choose?`,
      image: '',
      answer: `${y}; ${x}`,
    },
  ]);
};

// Each family is one booklet task; sarcasm is reported under CoMMET's NLC category.
const FAMILIES: Array<[string, Family, { task: string; category?: string }]> = [
  ['belief', diverseBelief, { task: 'diverse belief' }],
  ['perspective', perspective(false), { task: 'hard reference (perspective taking)' }],
  ['perspective-picture', perspective(true), { task: 'hard reference (perspective taking)' }],
  ['second-order', secondOrder, { task: 'second-order belief-desire' }],
  ['sarcasm', sarcasm, { task: 'sarcasm versus sincere praise', category: 'NLC' }],
  ['desire', diverseDesire, { task: 'diverse desire' }],
];

/** Seeded booklet-style StoryTurns with feedback branches (belief, perspective with a picture, second-order why, sarcasm, desires). */
export function generateStoryTurns(opts: { count: number; seed: number }): StoryTurnStory[] {
  const rng = createRng(`generated-storyturn:${opts.seed}`);
  return Array.from({ length: opts.count }, (_, i) => {
    const [name, make, labels] = FAMILIES[i % FAMILIES.length]!;
    return { ...make(rng, `st-${name}-${String(i).padStart(4, '0')}`), ...labels };
  });
}
