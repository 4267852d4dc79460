// The progress display: a bar with done, failed, retrying and cut-off counts, the running cost,
// rate and ETA (shown once a trial of this invocation has finished: before, it is unknown) on a terminal; on anything else (CI logs, pipes), a plain line every ten seconds
// (none for a run shorter than that). Always on the stream given (stderr), never stdout, so that
// `--json` output stays parseable; with --json the bar or the lines still show.
// Warnings (unknown prices, the first cut-off reply of each model, the cost limit) get a line each,
// and so does a long wait (a Retry-After of minutes): it is shown, with when calls resume, in the
// progress line until it ends, rather than the run sitting silent.

import cliProgress from 'cli-progress';
import type { RunEvent } from '../index.js';
import { formatUsd } from '../report/index.js';

export interface Progress {
  onEvent(e: RunEvent): void;
  stop(): void;
}

/** Waits at least this long are announced and shown in the progress line. */
const LONG_WAIT_MS = 10_000;

/** A duration for people: 45s, 12m 5s, 1h 0m. */
function formatWait(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

export function createProgress(stream: NodeJS.WriteStream = process.stderr, quiet = false): Progress {
  let total = 0;
  let done = 0;
  let failed = 0;
  let skipped = 0;
  let retrying = 0;
  let truncated = 0;
  let costUsd = 0;
  let unknownCost = false;
  const truncatedSpecs = new Set<string>();
  /** Long waits in progress: spec -> when its calls resume. */
  const waits = new Map<string, number>();
  const waiting = () => {
    const now = Date.now();
    for (const [spec, until] of waits) if (until <= now) waits.delete(spec);
    return [...waits].map(([spec, until]) => ` | waiting ${formatWait(until - now)} for ${spec}`).join('');
  };
  const started = Date.now();
  const cost = () => `${formatUsd(costUsd)}${unknownCost ? ' + unknown' : ''}`;
  const rate = () => done / Math.max(0.001, (Date.now() - started) / 1000);
  /** The time left at this invocation's pace so far; empty until a trial has finished, and once none is left. */
  const timeLeft = () => {
    const finished = done + failed;
    const left = total - done - failed - skipped;
    const seconds = (left * (Date.now() - started)) / 1000 / finished;
    return finished > 0 && left > 0 && Number.isFinite(seconds) ? ` | ETA ${formatWait(seconds * 1000)}` : '';
  };
  if (quiet) return { onEvent: () => {}, stop: () => {} };
  const tty = stream.isTTY;
  const bar = tty
    ? new cliProgress.SingleBar(
        {
          stream,
          format:
            '{bar} {value}/{total} | done {done} | failed {failed} | retrying {retrying} | cut off {truncated} | {cost} | {rate}/s{timeLeft}{waiting}',
          hideCursor: true,
          fps: 5,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  // The first plain line after ten seconds: short runs print none.
  let lastLine = started;
  const say = (line: string) => stream.write(`${tty ? '\r\x1b[K' : ''}${line}\n`);
  const update = () => {
    const payload = { done, failed, retrying, truncated, cost: cost(), rate: rate().toFixed(1), timeLeft: timeLeft(), waiting: waiting() };
    if (bar) bar.update(done + failed + skipped, payload);
    else if (Date.now() - lastLine > 10_000) {
      lastLine = Date.now();
      stream.write(
        `progress: ${done + failed + skipped}/${total} (done ${done}, failed ${failed}, already done ${skipped}, retrying ${retrying}, cut off ${truncated}, ${payload.cost}, ${payload.rate}/s)${payload.waiting}\n`,
      );
    }
  };
  return {
    onEvent(e) {
      switch (e.type) {
        case 'start':
          total = e.planned;
          costUsd = e.spentUsd;
          bar?.start(total, 0, { done, failed, retrying, truncated, cost: cost(), rate: '0.0', timeLeft: '', waiting: '' });
          return;
        case 'warning':
          say(`warning: ${e.message}`);
          return;
        case 'truncated':
          truncated++;
          if (!truncatedSpecs.has(e.spec)) {
            truncatedSpecs.add(e.spec);
            say(
              `warning: ${e.spec}: a reply was cut off at the ${e.maxTokens}-token output limit (${e.key.suite}/${e.key.itemId}); its answer may be missing or wrong. Raise --max-tokens; further cut-off replies are counted.`,
            );
          }
          break;
        case 'cost-limit':
          say(
            `stopping at the cost limit: ${formatUsd(e.committedUsd)} spent or in flight, and the next trial could pass --max-cost ${formatUsd(e.maxCostUsd)}; trials in flight finish`,
          );
          return;
        case 'skipped':
          skipped++;
          break;
        case 'done':
          done++;
          if (e.costUsd === null) unknownCost = true;
          else costUsd += e.costUsd;
          break;
        case 'failed':
          failed++;
          break;
        case 'retry':
          retrying++;
          setTimeout(() => {
            retrying--;
          }, e.delayMs).unref();
          if (e.delayMs >= LONG_WAIT_MS) {
            const until = Date.now() + e.delayMs;
            if ((waits.get(e.spec) ?? 0) < until) {
              waits.set(e.spec, until);
              say(
                `waiting ${formatWait(e.delayMs)} for ${e.spec} (until ${new Date(until).toISOString().slice(11, 19)} UTC): ${e.error.slice(0, 200)}`,
              );
              // Show the wait in the periodic line at once, not up to ten seconds later.
              lastLine = 0;
            }
          }
          break;
        case 'batch':
          // A line when a batch is submitted, ends or fails; while it runs, its progress at most every ten seconds.
          if (e.state !== 'running' || Date.now() - lastLine > 10_000) {
            lastLine = Date.now();
            const counts = e.total ? ` ${e.finished}/${e.total} calls` : '';
            say(`batch ${e.batchId} (${e.spec}, round ${e.round}): ${e.state}${counts}${e.error ? `: ${e.error}` : ''}`);
          }
          return;
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
