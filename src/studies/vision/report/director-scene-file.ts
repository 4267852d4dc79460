// A Director-Task scene for Figure 1: a scene id of the `director` suite (canonical-01,
// no-occluder-03, same-side-12, four-blocks-05, ...) regenerated with the run's seed, or a JSON
// file holding one scene (as a run's items store it: id, arm, blocks, hidden, director,
// extremum), checked field by field.

import { existsSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError, InputError, readJson } from '../../../core/index.js';
import { BLOCK_COLORS, type DirectorScene } from '../world/index.js';
import { directorItems } from '../suites/director-suite.js';
import { directorPicture } from '../suites/director-picture.js';

const SceneSchema = z.object({
  id: z.string().min(1),
  arm: z.enum(['canonical', 'no-occluder', 'same-side']),
  blocks: z
    .array(
      z.object({
        letter: z.string().regex(/^[A-Z]$/),
        color: z.enum(BLOCK_COLORS),
        size: z.number().int().min(1),
        slot: z.number().int().min(0),
      }),
    )
    .min(2)
    .max(6),
  hidden: z.string().nullable(),
  director: z.enum(['across', 'same-side']),
  extremum: z.enum(['largest', 'smallest']),
});

/**
 * The scene named by `ref` with its picture: a JSON file (a scene, or an item whose payload holds
 * one; the picture drawn when the file has none), else a scene id of the director suite.
 */
export function directorSceneOf(ref: string, seed = 0): { scene: DirectorScene; picture: string } {
  if (ref.endsWith('.json') || existsSync(ref)) {
    const json = readJson(ref) as { payload?: { scene?: unknown; picture?: unknown } };
    const raw = json?.payload?.scene ?? json;
    const parsed = SceneSchema.safeParse(raw);
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      throw new InputError(`not a Director-Task scene: ${i.path.join('.') || '(root)'}: ${i.message}`, ref);
    }
    const s = parsed.data;
    const slots = s.blocks.map((b) => b.slot).sort((a, b) => a - b);
    if (slots.some((x, i) => x !== i)) throw new InputError(`blocks: the slots must be 0..${s.blocks.length - 1}, each once`, ref);
    if (s.hidden !== null && !s.blocks.some((b) => b.letter === s.hidden))
      throw new InputError(`hidden: "${s.hidden}" is not the letter of a block`, ref);
    const scene: DirectorScene = { ...s, blocks: [...s.blocks].sort((a, b) => a.slot - b.slot) };
    const picture = typeof json?.payload?.picture === 'string' ? json.payload.picture : directorPicture(scene);
    return { scene, picture };
  }
  const m = /^(canonical|no-occluder|same-side|four-blocks)-(\d+)$/.exec(ref);
  if (!m || Number(m[2]) < 1)
    throw new ConfigError(
      `--figure1 ${ref}: give a scene id of the director suite (canonical-01, no-occluder-NN, same-side-NN, four-blocks-NN) or a JSON file of a scene`,
    );
  const item = directorItems({ perArm: Number(m[2]), seed }).find((i) => i.id === ref);
  if (!item) throw new ConfigError(`--figure1 ${ref}: no such scene (ids have two digits: ${m[1]}-${m[2]!.padStart(2, '0')})`);
  return { scene: item.payload.scene, picture: item.payload.picture };
}
