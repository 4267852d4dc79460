// The animated-triangles arms: how a clip reaches the subject (its representation, how many
// frames, the grid's columns and cell size) and which way it runs. The canonical arm is the
// numbered 4 x 4 grid, forward, of 150 x 112 cells; its controls are the same grid time-reversed
// and a single mid-clip still; the ablations are the plain grid, the 16 frames as separate
// pictures and the native video. The frame-representation comparison of the paper's Appendix L
// has nine arms: native_video, frames_16/32/64 (separate pictures of 320 x 240), grid_4x4, 4x8
// (4 rows of 8) and 8x8 at 320 x 240 a cell, and grid_4x4_fullres and grid_8x8_fullres at the
// source resolution (640 x 480 for the generated clips, the file's own size for the user's
// videos). Its grids are numbered, as the canonical grid is.

import type { FrameRepresentation } from '../protocols/describe-protocol.js';

export type TriangleVariant = 'forward' | 'reversed' | 'static';

/** A grid's cell size: the canonical grid's (150 x 112), the paper's Appendix-L grids' (320 x 240), or the clip's source resolution. */
export type GridCell = 'canonical' | 'paper' | 'source';

export interface TriangleArmSpec {
  representation: FrameRepresentation;
  variant: TriangleVariant;
  /** Frames sampled from the clip (grids and frame sequences). */
  frames?: number;
  /** Grid columns (rows follow from the frames). */
  columns?: number;
  cell?: GridCell;
}

/** The arms by name. */
export const TRIANGLE_ARMS = {
  grid: { representation: 'grid', variant: 'forward', frames: 16, columns: 4, cell: 'canonical' },
  reversed: { representation: 'grid', variant: 'reversed', frames: 16, columns: 4, cell: 'canonical' },
  still: { representation: 'still', variant: 'static' },
  'plain-grid': { representation: 'plain-grid', variant: 'forward', frames: 16, columns: 4, cell: 'canonical' },
  frames: { representation: 'frames', variant: 'forward', frames: 16 },
  video: { representation: 'video', variant: 'forward' },
  'frames-32': { representation: 'frames', variant: 'forward', frames: 32 },
  'frames-64': { representation: 'frames', variant: 'forward', frames: 64 },
  'grid-4x4': { representation: 'grid', variant: 'forward', frames: 16, columns: 4, cell: 'paper' },
  'grid-4x8': { representation: 'grid', variant: 'forward', frames: 32, columns: 8, cell: 'paper' },
  'grid-8x8': { representation: 'grid', variant: 'forward', frames: 64, columns: 8, cell: 'paper' },
  'grid-4x4-fullres': { representation: 'grid', variant: 'forward', frames: 16, columns: 4, cell: 'source' },
  'grid-8x8-fullres': { representation: 'grid', variant: 'forward', frames: 64, columns: 8, cell: 'source' },
} as const satisfies Record<string, TriangleArmSpec>;

export type TriangleArm = keyof typeof TRIANGLE_ARMS;

export const TRIANGLE_ARM_NAMES = Object.keys(TRIANGLE_ARMS) as TriangleArm[];

/** The arms whose items existed before the frame-representation arms: their ids end in the variant, not the arm. */
export const VARIANT_ID_ARMS: readonly TriangleArm[] = ['grid', 'reversed', 'still', 'plain-grid', 'frames', 'video'];

/** The nine arms of the frame-representation comparison (Appendix L), with the paper's names. */
export const FRAME_FORMAT_ARMS: Readonly<Record<string, TriangleArm>> = {
  native_video: 'video',
  frames_16: 'frames',
  frames_32: 'frames-32',
  frames_64: 'frames-64',
  grid_4x4: 'grid-4x4',
  grid_4x8: 'grid-4x8',
  grid_8x8: 'grid-8x8',
  grid_4x4_fullres: 'grid-4x4-fullres',
  grid_8x8_fullres: 'grid-8x8-fullres',
};
