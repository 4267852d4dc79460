// A probe item: the base item's identity and category, with the probe's payload.

import type { Item, McqPayload } from '../../../core/index.js';
import type { ProbePayload } from '../protocol/payload.js';

/** The probe item of a base item (its id, category and answer kept, so that reports line up with the base suite). */
export function probeItem(suite: string, base: Item<McqPayload>, payload: Omit<ProbePayload, 'baseSuite' | 'baseId'>): Item<ProbePayload> {
  return {
    suite,
    id: base.id,
    category: base.category,
    ...(base.ability !== undefined ? { ability: base.ability } : {}),
    payload: { ...payload, baseSuite: base.suite, baseId: base.id },
    answer: base.answer,
    meta: { baseSuite: base.suite, family: payload.family },
  };
}
