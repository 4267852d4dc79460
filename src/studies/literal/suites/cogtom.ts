// CogToM: released as one file of records, read by the generic multiple-choice loader with
// the benchmark's documented field names and its category labels mapped to ATOMS categories.

import type { McqFieldMap } from '../../../core/index.js';

/** CogToM's documented fields: scene, question, options{A..D}, answer, category, subcategory. */
export const COGTOM_FIELDS: McqFieldMap = {
  context: 'scene',
  question: 'question',
  options: 'options',
  answer: 'answer',
  category: 'category',
  subcategory: 'subcategory',
  categoryMap: {
    belief: 'belief',
    'false belief': 'belief',
    desire: 'desire',
    intention: 'intention',
    emotion: 'emotion',
    knowledge: 'knowledge',
    percept: 'percept',
    perception: 'percept',
    'non-literal': 'non-literal',
    'non-literal communication': 'non-literal',
    'nonliteral communication': 'non-literal',
    moral: 'moral',
  },
};
