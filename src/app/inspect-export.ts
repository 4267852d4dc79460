// `mindscope export inspect`: a run as Inspect AI eval logs, one `.json` log per subject x suite
// (Inspect's unit: one model on one task), so `inspect view` and Inspect's log tooling open it.
// Each trial is a sample (id: the item id; epoch: replicate + 1), with the conversation, the
// output, the protocol's score as C/I (or its value when it is not 0/1) and every judge score.
// Results follow Inspect's metrics: per-sample scores reduced over epochs by their mean, then
// accuracy (the mean) and stderr (sample SD / sqrt(n)).
//
// The run is read twice: a first pass over its trials without transcripts tallies each log's
// header (inspect-log-header.ts), which is written first; the second streams the samples after
// it, straight into the log. Memory holds per-item sums, never the transcripts.

import { closeSync, fstatSync, openSync, readSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, MindscopeError, makeDirectory } from '../core/index.js';
import type { RunRecord, Store } from '../store/index.js';
import { type LogTally, logHead, newTally, tallyTrial } from './inspect-log-header.js';
import { writeSample } from './inspect-sample.js';
import { TextFileWriter } from './text-file-writer.js';
import { runTrialRows } from './trial-rows.js';

export { INSPECT_LOG_VERSION, inspectModelName } from './inspect-log-header.js';
export { trialToSample } from './inspect-sample.js';

interface LogFile extends LogTally {
  file: string;
  /** Bytes of the header written before the samples. */
  headBytes: number;
  started: boolean;
  out: TextFileWriter | null;
  written: number;
}

/**
 * Logs whose files stay open while their samples are written; a run with more (subjects x
 * suites) writes each log through a smaller buffer, opening its file for each write.
 */
const OPEN_LOGS = 16;
const SMALL_BUFFER_BYTES = 1 << 16;
/** Bytes moved a read when a header grows after its samples were written. */
const MOVE_BYTES = 1 << 20;

/**
 * Put a longer header before the samples (reasoning tokens are known only from the
 * transcripts): the bytes after the old header move to the end, last chunk first.
 */
function replaceHead(g: LogFile, head: string): void {
  const bytes = Buffer.from(head, 'utf8');
  const shift = bytes.length - g.headBytes;
  const fd = openSync(g.file, 'r+');
  try {
    if (shift > 0) {
      const chunk = Buffer.allocUnsafe(MOVE_BYTES);
      for (let at = fstatSync(fd).size; at > g.headBytes; ) {
        const from = Math.max(g.headBytes, at - MOVE_BYTES);
        const n = readSync(fd, chunk, 0, at - from, from);
        writeSync(fd, chunk, 0, n, from + shift);
        at = from;
      }
    }
    writeSync(fd, bytes, 0, bytes.length, 0);
  } finally {
    closeSync(fd);
  }
}

function safeName(s: string): string {
  return s
    .replace(/[^\w.-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

export interface InspectExportResult {
  files: Array<{ path: string; subject: string; suite: string; samples: number }>;
}

/** The subjects' specs and the run's plan (a few rows: they come first in a store's records). */
async function specsAndPlan(store: Store, runId: string) {
  const specs = new Map<string, string>();
  const planned = new Map<string, number>();
  for await (const r of store.exportRecords()) {
    if (r.kind === 'subject') specs.set(r.subject.id, r.subject.spec);
    else if (r.kind === 'plan') {
      if (r.runId === runId) planned.set(`${r.row.subjectId}\u0000${r.row.suite}`, r.row.planned);
    } else if (r.kind !== 'run') break;
  }
  return { specs, planned };
}

/** The logs of a run, tallied and their headers written: the first pass. */
async function startLogs(store: Store, run: RunRecord, dir: string, settings: Map<string, Record<string, unknown>>) {
  const { specs, planned } = await specsAndPlan(store, run.id);
  const stamp = run.createdAt
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-')
    .replace('Z', '+00-00');
  const logs = new Map<string, LogFile>();
  for await (const t of store.runTrialSummaries(run.id)) {
    const key = `${t.subjectId}\u0000${t.suite}`;
    let g = logs.get(key);
    if (!g) {
      const subject = specs.get(t.subjectId) ?? t.subjectId;
      const file = join(dir, `${stamp}_${safeName(t.suite)}_${safeName(subject)}_${t.subjectId}.json`);
      g = { ...newTally(subject, t.subjectId, t.suite), file, headBytes: 0, started: false, out: null, written: 0 };
      logs.set(key, g);
    }
    tallyTrial(g, t);
  }
  for (const [key, g] of logs) {
    // Planned trials neither done nor failed: the log is of an evaluation still under way.
    g.started = (planned.get(key) ?? 0) - g.total > 0;
    const head = logHead(g, run, settings.get(g.subjectId) ?? {}, g.started);
    writeFileSync(g.file, head);
    g.headBytes = Buffer.byteLength(head, 'utf8');
  }
  return logs;
}

/** Write a run as Inspect eval logs into DIR (one `.json` per subject x suite); returns the files written. */
export async function exportInspectLogs(store: Store, runId: string, dir: string): Promise<InspectExportResult> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError(`no run "${runId}" in ${store.location}`);
  makeDirectory(dir);
  const settings = new Map((await store.runSubjects(runId)).map((s) => [s.id, s.settings]));
  const logs = await startLogs(store, run, dir, settings);
  const many = logs.size > OPEN_LOGS;
  try {
    for (const g of logs.values())
      g.out = new TextFileWriter(g.file, { append: true, holdOpen: !many, ...(many ? { bufferBytes: SMALL_BUFFER_BYTES } : {}) });
    for await (const r of runTrialRows(store, runId)) {
      const g = logs.get(`${r.subjectId}\u0000${r.suite}`);
      // A trial stored after the first pass is not in the header's tally: the log leaves it out.
      if (!g || g.written === g.total) continue;
      if (g.written++ > 0) g.out!.write(',');
      // The sample's text is encoded into the log's buffer at once (no text outlives its trial).
      writeSample(g.out!, r);
      if (r.status === 'done' && r.reasoningTokens !== null) g.reasoningTokens = (g.reasoningTokens ?? 0) + r.reasoningTokens;
    }
    const files: InspectExportResult['files'] = [];
    for (const g of logs.values()) {
      if (g.written !== g.total)
        throw new MindscopeError(`run ${runId} changed while it was exported (${g.subject} on ${g.suite}): export it again`);
      g.out!.write(']}');
      g.out!.close();
      if (g.reasoningTokens !== null) replaceHead(g, logHead(g, run, settings.get(g.subjectId) ?? {}, g.started));
      files.push({ path: g.file, subject: g.subject, suite: g.suite, samples: g.total });
    }
    return { files };
  } catch (err) {
    // No half-written log is left; the error reported is the first one.
    for (const g of logs.values()) {
      try {
        g.out?.close();
      } catch {
        // closing is best effort here
      }
      rmSync(g.file, { force: true });
    }
    throw err;
  }
}
