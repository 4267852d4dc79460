// Frames from the user's own video files for the animated-triangles task: N evenly spaced
// frames, one ffmpeg seek per frame at (i + 0.5) D / N, each scaled to a grid cell and read as
// raw RGB, then tiled into the same numbered grid as the procedural clips. Needs ffmpeg and
// ffprobe on the PATH (Debian: apt install ffmpeg).

import { spawnSync } from 'node:child_process';
import { ConfigError, InputError } from '../../core/index.js';
import { Canvas } from '../raster.js';

function run(cmd: string, args: string[], file: string): Buffer {
  const r = spawnSync(cmd, args, { maxBuffer: 1 << 26 });
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT')
    throw new ConfigError(`${cmd} is not installed: frames from video files need ffmpeg (Debian: apt install ffmpeg)`);
  if (r.status !== 0) throw new InputError(`${cmd} could not read the video: ${r.stderr.toString().trim().split('\n').pop()}`, file);
  return r.stdout;
}

export function videoDuration(file: string): number {
  const out = run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], file).toString().trim();
  const d = Number(out);
  if (!(d > 0)) throw new InputError(`no duration in the video ("${out}")`, file);
  return d;
}

/** N frames at (i + 0.5) D / N, each width x height RGB. */
export function sampleVideoFrames(file: string, opts: { frames?: number; width?: number; height?: number } = {}): Uint8Array[] {
  const n = opts.frames ?? 16;
  const w = opts.width ?? 150;
  const h = opts.height ?? 112;
  const d = videoDuration(file);
  return Array.from({ length: n }, (_, i) => {
    const t = ((i + 0.5) * d) / n;
    const raw = run(
      'ffmpeg',
      ['-v', 'error', '-ss', t.toFixed(3), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${w}x${h}`, '-'],
      file,
    );
    if (raw.length !== w * h * 3)
      throw new InputError(`frame ${i + 1} at ${t.toFixed(2)} s: expected ${w * h * 3} bytes, got ${raw.length}`, file);
    return new Uint8Array(raw);
  });
}

/** The sampled frames tiled into a numbered grid (4 x 4 by default), as a PNG data URL. */
export function videoGrid(file: string, opts: { frames?: number; columns?: number; badges?: boolean } = {}): string {
  const w = 150;
  const h = 112;
  const frames = sampleVideoFrames(file, { frames: opts.frames, width: w, height: h });
  const cols = opts.columns ?? 4;
  const c = new Canvas(cols * w, Math.ceil(frames.length / cols) * h);
  frames.forEach((f, i) => {
    const ox = (i % cols) * w;
    const oy = Math.floor(i / cols) * h;
    for (let y = 0; y < h; y++) c.px.set(f.subarray(y * w * 3, (y + 1) * w * 3), ((oy + y) * c.width + ox) * 3);
    if (opts.badges !== false) {
      c.rect(ox + 2, oy + 2, ox + 8 + 8 * String(i + 1).length, oy + 13, [255, 255, 255]);
      [...String(i + 1)].forEach((dgt, k) => c.letter(dgt, ox + 4 + k * 8, oy + 4, 1, [20, 20, 20]));
    }
  });
  return `data:image/png;base64,${c.png().toString('base64')}`;
}
