// `mindscope export trials` and `export inspect` load what the export uses: the store, the run's
// rows and the writers, not the HTML report (its page, charts and accuracy tables), which the
// entry they find the run through (mindscope/run-report) loads only when a report is written.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin', 'mindscope.js');

/** Run the CLI; with `modules`, the modules (file URLs) it resolved, from a resolve hook in the child. */
function mindscope(args: string[], modules = false): string[] {
  const hook = `data:text/javascript,import { registerHooks } from "node:module"; const seen = []; registerHooks({ resolve(s, c, next) { const r = next(s, c); seen.push(r.url); return r; } }); process.on("exit", () => process.stderr.write("\\nloaded=" + JSON.stringify(seen) + "\\n"));`;
  const r = spawnSync(process.execPath, [...(modules ? ['--import', hook] : []), bin, ...args], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return modules ? (JSON.parse(r.stderr.split('loaded=').at(-1)!) as string[]) : [];
}

describe('the exports load no report', () => {
  it('export trials and export inspect resolve no module of the HTML report', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-export-modules-'));
    const db = join(dir, 'runs.db');
    mindscope(['run', 'generated-tom', '--limit', '1', '--trials', '1', '--model', 'agent:oracle', '--db', db, '--run-id', 'r', '--quiet']);
    const report = (url: string) => /\/dist\/(report\/|app\/write-run-report\.js|analysis\/)/.test(url);
    const trials = mindscope(['export', 'trials', '--db', db, '--run-id', 'r', '--out', join(dir, 'r.jsonl')], true);
    expect(trials.some((u) => u.endsWith('/dist/app/export-trials.js'))).toBe(true);
    expect(trials.filter(report)).toEqual([]);
    expect(readFileSync(join(dir, 'r.jsonl'), 'utf8').split('\n')).toHaveLength(2);
    const inspect = mindscope(['export', 'inspect', '--db', db, '--run-id', 'r', '--out', join(dir, 'logs')], true);
    expect(inspect.some((u) => u.endsWith('/dist/app/inspect-export.js'))).toBe(true);
    expect(inspect.filter(report)).toEqual([]);
    // The report itself still loads its modules when it is written.
    const written = mindscope(['report', '--db', db, '--run-id', 'r', '--out', join(dir, 'report')], true);
    expect(written.filter(report).length).toBeGreaterThan(0);
  });
});
