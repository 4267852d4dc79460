// The ATOMS mental-state categories (Beaudoin et al. 2020) that every loader maps onto,
// plus trust (DialToM), moral reasoning (CoMMET) and `control` for questions that test
// memory or the true state of the world rather than a mental state (ToMi's reality/memory).

export const CATEGORIES = [
  'belief',
  'desire',
  'intention',
  'emotion',
  'knowledge',
  'percept',
  'non-literal',
  'trust',
  'moral',
  'control',
] as const;

export type Category = (typeof CATEGORIES)[number];

/** Whether a string is one of the ATOMS categories mindscope maps every label onto. */
export function isCategory(value: string): value is Category {
  return (CATEGORIES as readonly string[]).includes(value);
}
