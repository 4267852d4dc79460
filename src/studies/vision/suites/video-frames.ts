// Frames from the user's own video files for the animated-triangles task: N evenly spaced
// frames, one ffmpeg seek per frame at (i + 0.5) D / N, each scaled and read as raw RGB, then
// tiled into the same grid as the procedural clips (numbered or plain), or kept as separate
// pictures in order (a frame sequence), or one mid-clip still at the source's size; and the
// file itself as a data URL for providers that take native video. Needs ffmpeg and ffprobe on
// the PATH (Debian: apt install ffmpeg).

import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { ConfigError, InputError } from '../../../core/index.js';
import { Canvas } from '../../../suites/index.js';
import { CELL_H, CELL_W } from './triangle-grid.js';

/** Run ffmpeg or ffprobe; errors name the video file. */
export function runMediaTool(cmd: 'ffmpeg' | 'ffprobe', args: string[], file: string, input?: Uint8Array): Buffer {
  const r = spawnSync(cmd, args, { maxBuffer: 1 << 28, input });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT')
    throw new ConfigError(`${cmd} is not installed: video clips need ffmpeg (Debian: apt install ffmpeg)`);
  if (r.status !== 0) throw new InputError(`${cmd} could not read the video: ${r.stderr.toString().trim().split('\n').pop()}`, file);
  return r.stdout;
}

/** The video's duration in seconds (ffprobe). */
export function videoDuration(file: string): number {
  const out = runMediaTool('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], file).toString().trim();
  const d = Number(out);
  if (!(d > 0)) throw new InputError(`no duration in the video ("${out}")`, file);
  return d;
}

/** The first video stream's width and height. */
export function videoSize(file: string): { width: number; height: number } {
  const out = runMediaTool(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file],
    file,
  )
    .toString()
    .trim();
  const [width, height] = out.split(',').map(Number);
  if (!(width! > 0 && height! > 0)) throw new InputError(`no video size ("${out}")`, file);
  return { width: width!, height: height! };
}

function frameAt(file: string, t: number, w: number, h: number, label: string): Uint8Array {
  const raw = runMediaTool(
    'ffmpeg',
    ['-v', 'error', '-ss', t.toFixed(3), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${w}x${h}`, '-'],
    file,
  );
  if (raw.length !== w * h * 3) throw new InputError(`${label} at ${t.toFixed(2)} s: expected ${w * h * 3} bytes, got ${raw.length}`, file);
  return new Uint8Array(raw);
}

/** The first video stream's frame rate (frames a second; null when the file does not say). */
function videoFrameRate(file: string): number | null {
  const out = runMediaTool(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=r_frame_rate', '-of', 'csv=p=0', file],
    file,
  )
    .toString()
    .trim();
  const [num, den] = out.split('/').map(Number);
  const fps = den ? num! / den : num!;
  return fps > 0 && Number.isFinite(fps) ? fps : null;
}

/**
 * N frames at (i + 0.5) D / N, each width x height RGB. A time past the last frame's (dense
 * sampling of a short clip: 64 frames of 4 s at 10 frames a second) takes the last frame.
 */
export function sampleVideoFrames(file: string, opts: { frames?: number; width?: number; height?: number } = {}): Uint8Array[] {
  const n = opts.frames ?? 16;
  const w = opts.width ?? CELL_W;
  const h = opts.height ?? CELL_H;
  const d = videoDuration(file);
  const fps = videoFrameRate(file);
  const last = fps ? Math.max(0, d - 1 / fps) : d;
  return Array.from({ length: n }, (_, i) => frameAt(file, Math.min(last, ((i + 0.5) * d) / n), w, h, `frame ${i + 1}`));
}

const png = (c: Canvas) => `data:image/png;base64,${c.png().toString('base64')}`;

function picture(rgb: Uint8Array, w: number, h: number): Canvas {
  const c = new Canvas(w, h);
  c.px.set(rgb);
  return c;
}

/** The sampled frames (forward or reversed) tiled into a grid (4 x 4 by default), numbered unless `badges` is false, as a PNG data URL. */
export function videoGrid(file: string, opts: { frames?: number; columns?: number; badges?: boolean; reversed?: boolean } = {}): string {
  return tileFrames(sampleVideoFrames(file, { frames: opts.frames, width: CELL_W, height: CELL_H }), opts);
}

/** Frames of width x height RGB (CELL_W x CELL_H by default) tiled into a grid (sampled once, tiled for several arms). */
export function tileFrames(
  sampled: Uint8Array[],
  opts: { columns?: number; badges?: boolean; reversed?: boolean; width?: number; height?: number } = {},
): string {
  const w = opts.width ?? CELL_W;
  const h = opts.height ?? CELL_H;
  // Badges grow with the cell (scale 1 in the canonical cell).
  const s = Math.max(1, Math.round(w / CELL_W));
  const frames = opts.reversed ? [...sampled].reverse() : sampled;
  const cols = opts.columns ?? 4;
  const c = new Canvas(cols * w, Math.ceil(frames.length / cols) * h);
  frames.forEach((f, i) => {
    if (f.length !== w * h * 3) throw new InputError(`frame ${i + 1}: expected ${w * h * 3} bytes, got ${f.length}`, '<tiled frames>');
    const ox = (i % cols) * w;
    const oy = Math.floor(i / cols) * h;
    for (let y = 0; y < h; y++) c.px.set(f.subarray(y * w * 3, (y + 1) * w * 3), ((oy + y) * c.width + ox) * 3);
    if (opts.badges !== false) {
      c.rect(ox + 2 * s, oy + 2 * s, ox + (8 + 8 * String(i + 1).length) * s, oy + 13 * s, [255, 255, 255]);
      [...String(i + 1)].forEach((dgt, k) => c.letter(dgt, ox + (4 + k * 8) * s, oy + 4 * s, s, [20, 20, 20]));
    }
  });
  return png(c);
}

/** The sampled frames as separate pictures in order (320 x 240 each by default). */
export function videoFrameImages(file: string, opts: { frames?: number; width?: number; height?: number } = {}): string[] {
  const w = opts.width ?? 320;
  const h = opts.height ?? 240;
  return sampleVideoFrames(file, { frames: opts.frames, width: w, height: h }).map((f) => rgbImage(f, w, h));
}

/** Raw RGB of width x height as a PNG data URL. */
export function rgbImage(rgb: Uint8Array, w: number, h: number): string {
  return png(picture(rgb, w, h));
}

/** One still at mid-clip, at the source's size (at most `maxWidth` wide, aspect kept). */
export function videoStill(file: string, opts: { maxWidth?: number } = {}): string {
  const { width, height } = videoSize(file);
  const scale = Math.min(1, (opts.maxWidth ?? 1280) / width);
  // Even sizes, as video scalers like them.
  const w = Math.max(2, 2 * Math.round((width * scale) / 2));
  const h = Math.max(2, 2 * Math.round((height * scale) / 2));
  return png(picture(frameAt(file, videoDuration(file) / 2, w, h, 'the mid-clip still'), w, h));
}

const VIDEO_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.webm': 'video/webm',
  '.mov': 'video/mov',
  '.avi': 'video/avi',
  '.mpeg': 'video/mpeg',
  '.mpg': 'video/mpg',
  '.flv': 'video/x-flv',
  '.wmv': 'video/wmv',
  '.3gp': 'video/3gpp',
};

/** Inline video above this is refused: Gemini's inline request limit is 20 MB (larger files go through its Files API). */
export const MAX_INLINE_VIDEO_BYTES = 20 * 1024 * 1024;

/** A video file as a data URL with its media type (for native-video providers). */
export function videoDataUrl(file: string): string {
  const type = VIDEO_TYPES[extname(file).toLowerCase()];
  if (!type) throw new InputError(`unknown video type "${extname(file)}" (known: ${Object.keys(VIDEO_TYPES).join(' ')})`, file);
  let size: number;
  try {
    size = statSync(file).size;
  } catch (err) {
    throw new InputError(`cannot read the video file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, file);
  }
  if (size > MAX_INLINE_VIDEO_BYTES)
    throw new InputError(
      `the video has ${size} bytes; inline video is limited to ${MAX_INLINE_VIDEO_BYTES} (shorten or re-encode it)`,
      file,
    );
  return `data:${type};base64,${readFileSync(file).toString('base64')}`;
}
