// Finding and swapping the names of a story. A generated item names its agents and objects in its
// world; in a released item a name is a capitalised word of the question that the story uses too
// (not a function word), which finds the characters of ToMi, Hi-ToM, BigToM and most of ToMBench.

/** Replacement names, none of them a name the story generator uses. */
export const SWAP_NAMES = [
  'Avery',
  'Blake',
  'Casey',
  'Devon',
  'Emery',
  'Finley',
  'Harper',
  'Jordan',
  'Kendall',
  'Logan',
  'Morgan',
  'Parker',
  'Reese',
  'Riley',
  'Rowan',
  'Sawyer',
  'Skyler',
  'Taylor',
  'Teagan',
  'Wren',
];

/** Replacement objects for generated stories. */
export const SWAP_OBJECTS = ['thimble', 'compass', 'whistle', 'button', 'feather', 'seashell', 'stamp', 'ribbon', 'acorn', 'domino'];

const NOT_NAMES = new Set(
  (
    'I A An The He She They It We You His Her Their Its Our What Where Who Whom Whose Why How Which When Does Do Did Is Are Was Were ' +
    'Will Would Can Could Should Shall May Might Must Has Have Had This That These Those There Here Yes No Not After Before Then Now ' +
    'Meanwhile Later Question Answer Story Option Options Mr Mrs Ms Dr Sir Mom Dad Mum Mother Father If In On At To For From With By Of ' +
    'And But Or So As All Some Each Every One Two Three Monday Tuesday Wednesday Thursday Friday Saturday Sunday'
  ).split(' '),
);

/** The names a released item's question and story share. */
export function findNames(context: string, question: string): string[] {
  const words = (s: string) => new Set(s.match(/\b[A-Z][a-z]{2,}\b/g) ?? []);
  const inStory = words(context);
  return [...words(question)].filter((w) => inStory.has(w) && !NOT_NAMES.has(w)).sort();
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Replace whole words and phrases at once (a replacement is never replaced again). */
export function replaceWords(text: string, map: ReadonlyMap<string, string>): string {
  if (map.size === 0) return text;
  const keys = [...map.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return text.replace(new RegExp(`\\b(?:${keys.join('|')})\\b`, 'g'), (m) => map.get(m) ?? m);
}
