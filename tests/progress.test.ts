// The progress display (issue 10, item 4): a bar on a terminal, plain lines every ten seconds
// elsewhere (none for a short run), always on the stream given (stderr), whatever --json says.

import { Writable } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProgress } from '../src/cli/progress.js';
import type { RunEvent } from '../src/index.js';

function stream(tty: boolean): { s: NodeJS.WriteStream; text: () => string } {
  let out = '';
  const w = new Writable({
    write(chunk, _enc, done) {
      out += String(chunk);
      done();
    },
  }) as unknown as NodeJS.WriteStream;
  Object.assign(w, { isTTY: tty, columns: 120, cursorTo: () => true, clearLine: () => true, moveCursor: () => true });
  return { s: w, text: () => out };
}

const key = { runId: 'r', subjectId: 's', suite: 'x', itemId: 'i', replicate: 0 };
const done = { type: 'done', key, spec: 'agent:oracle', costUsd: 0 } as unknown as RunEvent;
const start = { type: 'start', planned: 10, spentUsd: 0 } as unknown as RunEvent;

afterEach(() => vi.useRealTimers());

describe('progress', () => {
  it('not a terminal: no line for a short run, then one plain line each ten seconds', () => {
    vi.useFakeTimers();
    const { s, text } = stream(false);
    const p = createProgress(s);
    p.onEvent(start);
    p.onEvent(done);
    expect(text()).toBe('');
    vi.advanceTimersByTime(10_500);
    p.onEvent(done);
    expect(text()).toMatch(/^progress: 2\/10 \(done 2, failed 0, already done 0, retrying 0, cut off 0, \$0\.0000, [\d.]+\/s\)\n$/);
    vi.advanceTimersByTime(3_000);
    p.onEvent(done);
    expect(text().split('\n').filter(Boolean)).toHaveLength(1);
    expect(text().includes(String.fromCharCode(27))).toBe(false);
    p.stop();
  });

  it('a terminal: a bar with the counts, on the stream given only', () => {
    const { s, text } = stream(true);
    const write = vi.spyOn(process.stdout, 'write');
    const p = createProgress(s);
    p.onEvent(start);
    for (let i = 0; i < 3; i++) p.onEvent(done);
    p.stop();
    expect(text()).toMatch(/3\/10 \| done 3 \| failed 0/);
    expect(write).not.toHaveBeenCalled();
    write.mockRestore();
  });

  it('a terminal: no ETA until a trial of this invocation has finished, then the time left at its pace; never NFs', () => {
    vi.useFakeTimers();
    const { s, text } = stream(true);
    const p = createProgress(s);
    p.onEvent(start);
    // Trials done before (skipped) finish at once and tell nothing of the pace.
    p.onEvent({ type: 'skipped' } as RunEvent);
    p.onEvent({ type: 'skipped' } as RunEvent);
    vi.advanceTimersByTime(1_000);
    expect(text()).toMatch(/2\/10 \| done 0/);
    expect(text()).not.toContain('ETA');
    vi.advanceTimersByTime(9_000);
    p.onEvent(done);
    p.onEvent(done);
    vi.advanceTimersByTime(1_000);
    // 2 done in 10 s, 6 left: 30 s.
    expect(text()).toMatch(/4\/10 \| done 2 .*\| ETA 30s/);
    p.stop();
    expect(text()).not.toMatch(/NF|NULL|INF/);
  });

  it('quiet shows nothing', () => {
    const { s, text } = stream(true);
    const p = createProgress(s, true);
    p.onEvent(start);
    p.onEvent(done);
    p.stop();
    expect(text()).toBe('');
  });
});
