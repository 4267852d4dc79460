// A procedural clip as a native video, for providers that take video (Gemini): every tick of
// the trajectory drawn as a frame and encoded by ffmpeg as H.264 in MP4 at 8 frames a second
// (160 ticks: 20 s, the length of the Frith-Happé clips). One encoder thread and bit-exact
// flags make the bytes repeat on one ffmpeg build; another build may encode differently.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TriangleFrame } from '../world/index.js';
import { triangleFrameRgb } from './triangle-grid.js';
import { runMediaTool } from './video-frames.js';

/** Encode frames (one per tick) as an MP4 data URL. */
export function clipVideo(ticks: TriangleFrame[], opts: { fps?: number; width?: number; height?: number } = {}): string {
  const w = opts.width ?? 320;
  const h = opts.height ?? 240;
  const raw = new Uint8Array(ticks.length * w * h * 3);
  ticks.forEach((f, i) => raw.set(triangleFrameRgb(f, w, h), i * w * h * 3));
  const dir = mkdtempSync(join(tmpdir(), 'mindscope-clip-'));
  const out = join(dir, 'clip.mp4');
  try {
    runMediaTool(
      'ffmpeg',
      [
        '-v',
        'error',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${w}x${h}`,
        '-r',
        String(opts.fps ?? 8),
        '-i',
        '-',
        '-c:v',
        'libx264',
        '-preset',
        'medium',
        '-crf',
        '23',
        '-pix_fmt',
        'yuv420p',
        '-threads',
        '1',
        '-fflags',
        '+bitexact',
        '-flags:v',
        '+bitexact',
        '-map_metadata',
        '-1',
        '-movflags',
        '+faststart',
        out,
      ],
      '<procedural clip>',
      raw,
    );
    return `data:video/mp4;base64,${readFileSync(out).toString('base64')}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
