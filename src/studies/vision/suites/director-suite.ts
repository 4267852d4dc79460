// The `director` suite: the counterbalanced scene set (counterbalancedScene) for the canonical
// arm (three blocks, partition, director across), the two control arms on the same scenes (no
// occluder; director on the addressee's side) and the four-block variant, each scene with its
// picture. The seed shifts the letter-colour mappings; the balance holds for every seed.

import { createRng, type Item } from '../../../core/index.js';
import { counterbalancedScene, type DirectorArm } from '../world/index.js';
import type { DirectorPayload } from '../protocols/director-protocol.js';
import { directorPicture } from './director-picture.js';

/** Director-Task items: `perArm` scenes for each arm, arms interleaved so that the first N items cover every arm. */
export function directorItems(opts: { perArm: number; seed: number }): Item<DirectorPayload>[] {
  const offset = createRng(`director:${opts.seed}`).int(24);
  const arms: Array<{ arm: DirectorArm; blocks: 3 | 4; name: string }> = [
    { arm: 'canonical', blocks: 3, name: 'canonical' },
    { arm: 'no-occluder', blocks: 3, name: 'no-occluder' },
    { arm: 'same-side', blocks: 3, name: 'same-side' },
    { arm: 'canonical', blocks: 4, name: 'four-blocks' },
  ];
  const items: Item<DirectorPayload>[] = [];
  for (let i = 0; i < opts.perArm; i++) {
    for (const { arm, blocks, name } of arms) {
      const scene = counterbalancedScene(i, { id: `${name}-${String(i + 1).padStart(2, '0')}`, blocks, arm, offset });
      const d = scene.design!;
      items.push({
        suite: 'director',
        id: scene.id,
        category: 'percept' as const,
        ability: name,
        payload: { scene, picture: directorPicture(scene) },
        answer: scene.extremum,
        meta: {
          arm: name,
          blocks,
          palette: d.palette,
          mapping: d.mapping.join('/'),
          targetSlot: d.targetSlot,
          trapSlot: d.trapSlot,
          polarity: scene.extremum,
        },
      });
    }
  }
  return items;
}
