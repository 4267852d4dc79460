// The `director` suite: seeded scenes for the canonical arm (three blocks, partition, director
// across), the two control arms (no occluder; director on the addressee's side) and the
// four-block variant, each scene with its picture.

import { createRng, type Item } from '../../core/index.js';
import { makeDirectorScene, type DirectorArm } from '../../worlds/index.js';
import type { DirectorPayload } from '../../protocols/index.js';
import { directorPicture } from './director-picture.js';

export function directorItems(opts: { perArm: number; seed: number }): Item<DirectorPayload>[] {
  const rng = createRng(`director:${opts.seed}`);
  const arms: Array<{ arm: DirectorArm; blocks: 3 | 4; name: string }> = [
    { arm: 'canonical', blocks: 3, name: 'canonical' },
    { arm: 'no-occluder', blocks: 3, name: 'no-occluder' },
    { arm: 'same-side', blocks: 3, name: 'same-side' },
    { arm: 'canonical', blocks: 4, name: 'four-blocks' },
  ];
  // Arms interleaved, so that the first N scenes cover every arm.
  const items: Item<DirectorPayload>[] = [];
  for (let i = 0; i < opts.perArm; i++) {
    for (const { arm, blocks, name } of arms) {
      const scene = makeDirectorScene(rng, `${name}-${String(i + 1).padStart(2, '0')}`, { blocks, arm });
      items.push({
        suite: 'director',
        id: scene.id,
        category: 'percept' as const,
        ability: name,
        payload: { scene, picture: directorPicture(scene) },
        answer: scene.extremum,
        meta: { arm: name, blocks },
      });
    }
  }
  return items;
}
