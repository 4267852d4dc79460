// The animated-triangles suites: one clip per behaviour (twelve: four per condition) in the arms
// of the paper (triangle-arms.ts). The item carries the condition, the script and the informed
// rubric's expected Intent range for the judges; the subject sees the stimulus only.

import { createRng, InputError, type Item } from '../../../core/index.js';
import { makeTriangleClip, sampleFrames, TRIANGLE_BEHAVIOURS, type TriangleClip } from '../world/index.js';
import type { DescribePayload } from '../protocols/describe-protocol.js';
import { clipVideo } from './clip-video.js';
import { CELL_H, CELL_W, PAPER_CELL, SOURCE_FRAME, triangleFrameImage, triangleGrid } from './triangle-grid.js';
import {
  TRIANGLE_ARM_NAMES,
  TRIANGLE_ARMS,
  VARIANT_ID_ARMS,
  type GridCell,
  type TriangleArm,
  type TriangleArmSpec,
  type TriangleVariant,
} from './triangle-arms.js';
import { rgbImage, sampleVideoFrames, tileFrames, videoDataUrl, videoSize, videoStill } from './video-frames.js';

export * from './triangle-arms.js';

/**
 * The informed rubric's per-clip Intent target (overlay layer iii of the paper's Appendix J). The
 * paper gives the ToM range, 4-5 (from the TD-adult ToM mean 4.3); the goal-directed and random
 * ranges follow the Castelli levels those conditions are built to draw (2-3: deliberate action
 * with or in response to another; 0-1: non-deliberate or solitary action).
 */
export const INFORMED_EXPECTED_INTENT: Record<string, string> = { tom: '4-5', 'goal-directed': '2-3', random: '0-1' };

export interface TrianglesPayload extends DescribePayload {
  behaviour: string;
  condition: string;
  variant: TriangleVariant;
  script: string;
}

function scriptFor(variant: TriangleVariant, script: string): string {
  return variant === 'forward' ? script : `${variant === 'reversed' ? 'Time-reversed' : 'Static key frame of'}: ${script}`;
}

/** A procedural grid cell's size. */
function cellSize(cell: GridCell | undefined): { width: number; height: number } {
  return cell === 'paper' ? PAPER_CELL : cell === 'source' ? SOURCE_FRAME : { width: CELL_W, height: CELL_H };
}

function stimulus(clip: TriangleClip, arm: TriangleArm): Pick<DescribePayload, 'images' | 'video'> {
  const spec: TriangleArmSpec = TRIANGLE_ARMS[arm];
  const n = spec.frames ?? 16;
  const sampled = n === clip.frames.length ? clip.frames : sampleFrames(clip.trajectory, n);
  const frames = spec.variant === 'reversed' ? [...sampled].reverse() : sampled;
  const cell = cellSize(spec.cell);
  switch (spec.representation) {
    case 'grid':
    case 'plain-grid':
      return {
        images: [
          triangleGrid(frames, {
            badges: spec.representation === 'grid',
            ...(spec.columns !== 4 ? { columns: spec.columns } : {}),
            ...(spec.cell !== 'canonical' ? { cellWidth: cell.width, cellHeight: cell.height } : {}),
          }),
        ],
      };
    case 'frames':
      return { images: frames.map((f) => triangleFrameImage(f)) };
    case 'still':
      return { images: [triangleFrameImage(clip.frames[Math.floor(clip.frames.length / 2)]!, SOURCE_FRAME)] };
    case 'video':
      return { images: [], video: clipVideo(clip.trajectory) };
  }
}

/** An item's id: the arms that predate the frame-representation arms keep their variant suffix (unless `armIds`). */
function itemId(behaviour: string, index: number, arm: TriangleArm, variant: TriangleVariant, armIds: boolean): string {
  return !armIds && VARIANT_ID_ARMS.includes(arm) ? `${behaviour}-${index}-${variant}` : `${behaviour}-${index}-${arm}`;
}

/** The frame count a grid's request names (only for the arms added with the frame-representation comparison). */
function frameCountOf(arm: TriangleArm): { frameCount?: number } {
  const spec: TriangleArmSpec = TRIANGLE_ARMS[arm];
  return VARIANT_ID_ARMS.includes(arm) || spec.frames === undefined ? {} : { frameCount: spec.frames };
}

/** Procedural clips in the given arms (default: the canonical grid and its reversed and still controls). */
export function triangleItems(opts: {
  seed: number;
  arms?: TriangleArm[];
  repeats?: number;
  suite?: string;
  /** Only the first N clips (in behaviour order): what `--limit` needs, without drawing the rest. */
  clips?: number;
  /** Item ids end in the arm (a suite with several forward arms); by default the older arms end in their variant. */
  armIds?: boolean;
}): Item<TrianglesPayload>[] {
  const arms = opts.arms ?? ['grid', 'reversed', 'still'];
  const items: Item<TrianglesPayload>[] = [];
  let drawn = 0;
  for (let r = 0; r < (opts.repeats ?? 1); r++) {
    for (const [condition, behaviours] of Object.entries(TRIANGLE_BEHAVIOURS)) {
      for (const behaviour of behaviours) {
        if (opts.clips !== undefined && drawn++ >= opts.clips) return items;
        const clip = makeTriangleClip(behaviour, createRng(`triangles:${opts.seed}:${behaviour}:${r}`));
        for (const arm of arms) {
          const { representation, variant } = TRIANGLE_ARMS[arm];
          items.push({
            suite: opts.suite ?? 'triangles',
            id: itemId(behaviour, r + 1, arm, variant, opts.armIds ?? false),
            category: 'intention',
            ability: `${condition} ${arm}`,
            payload: {
              representation,
              ...frameCountOf(arm),
              ...stimulus(clip, arm),
              behaviour,
              condition,
              variant,
              script: scriptFor(variant, clip.script),
              expectedIntent: INFORMED_EXPECTED_INTENT[condition],
            },
            answer: condition,
            meta: { condition, behaviour, variant, representation, arm },
          });
        }
      }
    }
  }
  return items;
}

/** One of the user's clips: a video file (relative to the list), its condition and script. */
export interface UserClip {
  file: string;
  condition: string;
  script: string;
  behaviour?: string;
}

/**
 * The user's clip list: a JSON list of clips, or `{ "clips": [...], "arms": [...] }` naming the
 * arms (default grid, reversed, still; also plain-grid, frames, video).
 */
export function parseClipList(json: unknown, listFile: string): { clips: UserClip[]; arms: TriangleArm[] } {
  const obj = json as { clips?: unknown; arms?: unknown };
  const clips = Array.isArray(json) ? json : obj?.clips;
  if (!Array.isArray(clips)) throw new InputError('expected a JSON list of clips, or { "clips": [...], "arms": [...] }', listFile);
  const arms = (Array.isArray(json) ? undefined : obj.arms) ?? ['grid', 'reversed', 'still'];
  if (!Array.isArray(arms) || arms.length === 0) throw new InputError('arms must be a non-empty list', listFile);
  for (const a of arms)
    if (!(TRIANGLE_ARM_NAMES as string[]).includes(a))
      throw new InputError(`unknown arm "${a}" (known: ${TRIANGLE_ARM_NAMES.join(', ')})`, listFile);
  clips.forEach((c: Partial<UserClip>, i) => {
    if (!c?.file || !c.condition || !c.script) throw new InputError(`clip ${i}: needs file, condition and script`, listFile);
  });
  return { clips: clips as UserClip[], arms: arms as TriangleArm[] };
}

/**
 * The media of each arm of a video file: N frames sampled with ffmpeg at (i + 0.5) D / N (once
 * per file, count and size, shared by the arms that need the same), or the file itself.
 */
function videoStimuli(): (file: string, arm: TriangleArm) => Pick<DescribePayload, 'images' | 'video'> {
  const sampled = new Map<string, Uint8Array[]>();
  const frames = (file: string, n: number, width: number, height: number) => {
    const key = `${file}\u0000${n}\u0000${width}x${height}`;
    let f = sampled.get(key);
    if (!f) sampled.set(key, (f = sampleVideoFrames(file, { frames: n, width, height })));
    return f;
  };
  return (file, arm) => {
    const spec: TriangleArmSpec = TRIANGLE_ARMS[arm];
    const n = spec.frames ?? 16;
    switch (spec.representation) {
      case 'grid':
      case 'plain-grid': {
        const { width, height } = spec.cell === 'source' ? videoSize(file) : cellSize(spec.cell);
        return {
          images: [
            tileFrames(frames(file, n, width, height), {
              width,
              height,
              columns: spec.columns,
              badges: spec.representation === 'grid',
              reversed: spec.variant === 'reversed',
            }),
          ],
        };
      }
      case 'frames':
        return { images: frames(file, n, 320, 240).map((f) => rgbImage(f, 320, 240)) };
      case 'still':
        return { images: [videoStill(file)] };
      case 'video':
        return { images: [], video: videoDataUrl(file) };
    }
  };
}

/** Clips from the user's video files in the listed arms; `media` may be replaced (tests). */
export function videoTriangleItems(
  list: { clips: UserClip[]; arms: TriangleArm[] },
  resolve: (p: string) => string,
  media: (file: string, arm: TriangleArm) => Pick<DescribePayload, 'images' | 'video'> = videoStimuli(),
): Item<TrianglesPayload>[] {
  return list.clips.flatMap((c, i) => {
    const behaviour = c.behaviour ?? `clip-${i + 1}`;
    const condition = c.condition.toLowerCase();
    return list.arms.map((arm) => {
      const { representation, variant } = TRIANGLE_ARMS[arm];
      return {
        suite: 'triangles-video',
        // The canonical arm keeps the id clips had before arms existed.
        id: arm === 'grid' ? `${behaviour}-${i + 1}` : `${behaviour}-${i + 1}-${arm}`,
        category: 'intention' as const,
        ability: `${condition} ${arm}`,
        payload: {
          representation,
          ...frameCountOf(arm),
          ...media(resolve(c.file), arm),
          behaviour,
          condition,
          variant,
          script: scriptFor(variant, c.script),
          expectedIntent: INFORMED_EXPECTED_INTENT[condition] ?? 'unknown',
        },
        answer: condition,
        meta: { condition, behaviour, variant, representation, arm, file: c.file },
      };
    });
  });
}
