// The progress display: a bar with done, failed and retrying counts, rate and ETA on a terminal;
// on anything else (CI logs, pipes), a line every ten seconds at most.

import cliProgress from 'cli-progress';
import type { RunEvent } from '../index.js';

export interface Progress {
  onEvent(e: RunEvent): void;
  stop(): void;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, quiet = false): Progress {
  let total = 0;
  let done = 0;
  let failed = 0;
  let skipped = 0;
  let retrying = 0;
  const started = Date.now();
  const rate = () => done / Math.max(0.001, (Date.now() - started) / 1000);
  if (quiet) return { onEvent: () => {}, stop: () => {} };
  const tty = stream.isTTY;
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          stream,
          format: '{bar} {value}/{total} | done {done} | failed {failed} | retrying {retrying} | {rate}/s | ETA {eta_formatted}',
          hideCursor: true,
          etaBuffer: 200,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  let lastLine = 0;
  const update = () => {
    const payload = { done, failed, retrying, rate: rate().toFixed(1) };
    if (bar) bar.update(done + failed + skipped, payload);
    else if (Date.now() - lastLine > 10_000) {
      lastLine = Date.now();
      stream.write(
        `progress: ${done + failed + skipped}/${total} (done ${done}, failed ${failed}, already done ${skipped}, retrying ${retrying}, ${payload.rate}/s)\n`,
      );
    }
  };
  return {
    onEvent(e) {
      switch (e.type) {
        case 'start':
          total = e.planned;
          bar?.start(total, 0, { done, failed, retrying, rate: '0.0' });
          return;
        case 'skipped':
          skipped++;
          break;
        case 'done':
          done++;
          break;
        case 'failed':
          failed++;
          break;
        case 'retry':
          retrying++;
          setTimeout(() => {
            retrying--;
          }, e.delayMs).unref();
          break;
        case 'subject-aborted':
          bar?.stop();
          stream.write(`stopping ${e.spec}: ${e.error}\n`);
          return;
        default:
          return;
      }
      update();
    },
    stop() {
      bar?.stop();
    },
  };
}
