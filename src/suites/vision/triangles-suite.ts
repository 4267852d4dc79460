// The `triangles` suite: one clip per behaviour (twelve: four per condition), rendered as a
// frame grid, plus the controls: the same clip time-reversed, and a static key frame repeated.
// The item carries the condition and the script for the judges; the subject sees the grid only.

import { createRng, InputError, type Item } from '../../core/index.js';
import { makeTriangleClip, TRIANGLE_BEHAVIOURS } from '../../worlds/index.js';
import { triangleGrid } from './triangle-grid.js';

export interface TrianglesPayload {
  behaviour: string;
  condition: string;
  variant: 'forward' | 'reversed' | 'static';
  script: string;
  grid: string;
}

export function triangleItems(opts: {
  seed: number;
  variants?: Array<TrianglesPayload['variant']>;
  repeats?: number;
}): Item<TrianglesPayload>[] {
  const variants = opts.variants ?? ['forward', 'reversed', 'static'];
  const items: Item<TrianglesPayload>[] = [];
  for (let r = 0; r < (opts.repeats ?? 1); r++) {
    for (const [condition, behaviours] of Object.entries(TRIANGLE_BEHAVIOURS)) {
      for (const behaviour of behaviours) {
        const clip = makeTriangleClip(behaviour, createRng(`triangles:${opts.seed}:${behaviour}:${r}`));
        for (const variant of variants) {
          const frames =
            variant === 'reversed'
              ? [...clip.frames].reverse()
              : variant === 'static'
                ? clip.frames.map(() => clip.frames[Math.floor(clip.frames.length / 2)]!)
                : clip.frames;
          items.push({
            suite: 'triangles',
            id: `${behaviour}-${r + 1}-${variant}`,
            category: 'intention',
            ability: `${condition} ${variant}`,
            payload: {
              behaviour,
              condition,
              variant,
              script:
                variant === 'forward' ? clip.script : `${variant === 'reversed' ? 'Time-reversed' : 'Static key frame of'}: ${clip.script}`,
              grid: triangleGrid(frames),
            },
            answer: condition,
            meta: { condition, behaviour, variant },
          });
        }
      }
    }
  }
  return items;
}

/**
 * Clips from the user's video files: a JSON list of { file, condition, script, behaviour? }
 * (paths relative to the list), each sampled into a frame grid with ffmpeg.
 */
export function videoTriangleItems(
  listFile: string,
  clips: Array<{ file: string; condition: string; script: string; behaviour?: string }>,
  resolve: (p: string) => string,
  grid: (file: string) => string,
): Item<TrianglesPayload>[] {
  return clips.map((c, i) => {
    if (!c.file || !c.condition || !c.script) throw new InputError(`clip ${i}: needs file, condition and script`, listFile);
    const behaviour = c.behaviour ?? `clip-${i + 1}`;
    return {
      suite: 'triangles-video',
      id: `${behaviour}-${i + 1}`,
      category: 'intention',
      ability: `${c.condition} forward`,
      payload: { behaviour, condition: c.condition, variant: 'forward', script: c.script, grid: grid(resolve(c.file)) },
      answer: c.condition,
      meta: { condition: c.condition, behaviour, variant: 'forward', file: c.file },
    };
  });
}
