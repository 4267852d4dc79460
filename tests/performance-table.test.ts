// The performance page the bench scripts write (bench/performance-table.mjs): each bench rewrites
// its own section, rows keyed by figure; a figure measured again replaces its row, one not
// measured keeps its row and the run line it came from; other benches' sections are left alone.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without type declarations
import { BENCHES, parsePerformancePage, recordPerformance, updatePerformancePage } from '../bench/performance-table.mjs';

type Row = { figure: string; value: string; peer: string; ratio: string; run: string };
type Section = { runs: Map<string, string>; rows: Row[] };

describe('the performance page', () => {
  it('writes a run, replaces re-measured rows, keeps the others with their run, and leaves other benches alone', () => {
    const first = updatePerformancePage('', 'runner', '2026-01-01: `node bench/runner.mjs` on CPU A', [
      { figure: 'trials per second', value: '1000 trials/s', peer: '1100 trials/s', ratio: 1000 / 1100 },
      { figure: 'peak heap | 50,000 trials', value: '90 MiB', peer: '128 MiB', ratio: 90 / 128 },
    ]);
    const withStore = updatePerformancePage(first, 'store-size', '2026-01-02: `node bench/store-size.mjs` on CPU A', [
      { figure: 'bytes per trial', value: '998 B', peer: '1,024 B', ratio: 998 / 1024 },
    ]);
    const quick = updatePerformancePage(withStore, 'runner', '2026-01-03: `node bench/runner.mjs --quick` on CPU B', [
      { figure: 'trials per second', value: '1200 trials/s', peer: '1150 trials/s', ratio: 1200 / 1150 },
      { figure: 'client CPU per trial', value: '0.40 ms', peer: '0.45 ms', ratio: '0.89' },
    ]);
    const sections = parsePerformancePage(quick) as Map<string, Section>;
    const runner = sections.get('runner')!;
    // The first run is still cited by the heap row it measured alone; the new run is numbered after it.
    expect([...runner.runs]).toEqual([
      ['1', '2026-01-01: `node bench/runner.mjs` on CPU A'],
      ['2', '2026-01-03: `node bench/runner.mjs --quick` on CPU B'],
    ]);
    expect(runner.rows.map((r) => [r.figure, r.value, r.peer, r.ratio, r.run])).toEqual([
      ['trials per second', '1200 trials/s', '1150 trials/s', '1.04', '2'],
      ['peak heap | 50,000 trials', '90 MiB', '128 MiB', '0.70', '1'],
      ['client CPU per trial', '0.40 ms', '0.45 ms', '0.89', '2'],
    ]);
    expect(sections.get('store-size')!.rows.map((r) => r.value)).toEqual(['998 B']);
    // Every bench has its section; the unmeasured ones say how to measure them.
    expect([...sections.keys()]).toEqual(BENCHES.map((b: { id: string }) => b.id));
    expect(quick).toMatch(/## soak\n[\s\S]*Not measured on the machine behind this page yet: run `node bench\/soak\.mjs`/);
    // Rewriting with a run that re-measures every row drops the first run's line.
    const again = updatePerformancePage(quick, 'runner', '2026-01-04: `node bench/runner.mjs` on CPU C', [
      { figure: 'trials per second', value: '1300 trials/s' },
      { figure: 'peak heap | 50,000 trials', value: '80 MiB' },
      { figure: 'client CPU per trial', value: '0.38 ms' },
    ]);
    const rerun = (parsePerformancePage(again) as Map<string, Section>).get('runner')!;
    expect([...rerun.runs.values()]).toEqual(['2026-01-04: `node bench/runner.mjs` on CPU C']);
    expect(rerun.rows.every((r) => r.run === '1' && r.peer === '' && r.ratio === '')).toBe(true);
    expect(() => updatePerformancePage(again, 'no-such-bench', 'x', [])).toThrow(/unknown bench no-such-bench/);
  });

  it('records into a page file with the machine and the date, or not at all with --no-record', () => {
    const page = join(mkdtempSync(join(tmpdir(), 'mindscope-perf-')), 'performance.md');
    recordPerformance('report', [{ figure: 'report at 100,000 trials; limit 1 s', value: '0.80 s', peer: '1 s', ratio: 0.8 }], {
      page,
      date: '2026-02-03',
      command: 'node bench/report.mjs --rounds 5',
    });
    const text = readFileSync(page, 'utf8');
    expect(text).toMatch(/^# Performance\n/);
    // The run line names the command, the date and the machine: CPU model, cores, Node version.
    expect(text).toMatch(
      new RegExp(
        `- Run 1, 2026-02-03: \`node bench/report\\.mjs --rounds 5\` on .+, \\d+ cores, Node ${process.version.replaceAll('.', '\\.')}$`,
        'm',
      ),
    );
    expect(text).toContain('| report at 100,000 trials; limit 1 s | 0.80 s | 1 s | 0.80 | 1 |');
  });
});
