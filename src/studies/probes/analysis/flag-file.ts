// The flag file of the shortcut baselines: the items answerable without their story, in the item
// filter format that `mindscope audit --exclude-items` and `mindscope irt calibrate
// --exclude-items` read (`items`: suite and id of each item to leave out).

import type { ItemExclusionFile } from '../../../store/index.js';
import type { ShortcutSummary } from './shortcut.js';

/** The flag file: the excluded items, why, and the test that flagged them. */
export type ItemFlagFile = ItemExclusionFile & { test: string; flags: ShortcutSummary['flags'] };

/** The flag file of a shortcut summary: every item some subject answers above chance without its story. */
export function itemFlagFile(s: ShortcutSummary): ItemFlagFile {
  const items = [...new Map(s.flags.map((f) => [`${f.suite}\u0000${f.id}`, { suite: f.suite, id: f.id }])).values()];
  return {
    kind: 'mindscope-item-exclusions',
    reason: 'answerable without the story (shortcut baselines)',
    items,
    test: s.test,
    flags: s.flags,
  };
}
