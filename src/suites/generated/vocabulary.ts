// Words the story generator draws from. Names are distinct, one word each, so that answers
// and options never collide.

export const NAMES = [
  'Alice',
  'Bilal',
  'Chen',
  'Dara',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kemi',
  'Liam',
  'Maya',
  'Nikos',
  'Olga',
  'Priya',
  'Quinn',
  'Rosa',
  'Sami',
  'Tariq',
  'Uma',
  'Victor',
  'Wen',
  'Ximena',
  'Yusuf',
  'Zoe',
];

export const ROOMS = ['kitchen', 'garage', 'attic', 'living room', 'classroom', 'office', 'garden shed', 'library', 'studio', 'pantry'];

export const OBJECTS = [
  'apple',
  'ball',
  'book',
  'key',
  'scarf',
  'marble',
  'watch',
  'pencil',
  'cookie',
  'toy car',
  'ring',
  'letter',
  'spoon',
  'banana',
  'glove',
  'coin',
  'puzzle piece',
  'candle',
];

export const CONTAINERS = ['box', 'basket', 'drawer', 'bag', 'jar', 'cupboard', 'suitcase', 'bucket', 'envelope', 'crate', 'tin', 'chest'];

export const COLOURS = ['red', 'blue', 'green', 'yellow', 'white', 'black', 'purple', 'orange'];
