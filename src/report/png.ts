// SVG charts as PNG, rasterised by ffmpeg's librsvg decoder (the Debian ffmpeg has it), so a
// chart can be dropped into slides or papers. Without ffmpeg it says so instead of failing quietly.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../core/index.js';

/** ffmpeg is not installed: the PNG copies cannot be made (the SVGs can). */
export class FfmpegMissing extends ConfigError {
  constructor() {
    super('PNG charts need ffmpeg with librsvg (Debian: apt install ffmpeg)');
  }
}

/** Rasterise SVG text to PNG with ffmpeg's librsvg decoder. */
export function svgToPng(svg: string): Buffer {
  // Through files: ffmpeg's SVG demuxer does not read from a pipe.
  const dir = mkdtempSync(join(tmpdir(), 'mindscope-png-'));
  try {
    writeFileSync(join(dir, 'chart.svg'), svg);
    const r = spawnSync('ffmpeg', ['-v', 'error', '-i', join(dir, 'chart.svg'), '-frames:v', '1', join(dir, 'chart.png')]);
    if (r.error && (r.error as NodeJS.ErrnoException).code === 'ENOENT') throw new FfmpegMissing();
    if (r.status !== 0) throw new ConfigError(`ffmpeg could not rasterise the chart: ${r.stderr.toString().trim().split('\n').pop()}`);
    return readFileSync(join(dir, 'chart.png'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
