// `mindscope export inspect`: a run as Inspect AI eval logs, one `.json` log per subject x suite
// (Inspect's unit: one model on one task), so `inspect view` and Inspect's log tooling open it.
// Each trial is a sample (id: the item id; epoch: replicate + 1), with the conversation, the
// output, the protocol's score as C/I (or its value when it is not 0/1) and every judge score.
// Results follow Inspect's metrics: per-sample scores reduced over epochs by their mean, then
// accuracy (the mean) and stderr (sample SD / sqrt(n)).
//
// The run is read once: each trial's sample is written straight into its log as the trials
// stream out, and tallied for the log's header (inspect-log-header.ts), which is put before the
// samples once the last is written. Memory holds per-item sums, never the transcripts.

import { closeSync, fstatSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, makeDirectory, sha256 } from '../core/index.js';
import type { Store } from '../store/index.js';
import { type LogTally, logHead, newTally, tallyTrial } from './inspect-log-header.js';
import { writeSample } from './inspect-sample.js';
import { TextFileWriter } from './text-file-writer.js';
import { runTrialRowBatches, type TrialRow } from './trial-rows.js';

export { INSPECT_LOG_VERSION, inspectModelName } from './inspect-log-header.js';
export { trialToSample } from './inspect-sample.js';

interface LogFile extends LogTally {
  file: string;
  out: TextFileWriter;
  written: number;
}

/**
 * Logs whose files stay open while their samples are written; a run with more (subjects x
 * suites) writes the others through a smaller buffer, opening the file for each write.
 */
const OPEN_LOGS = 16;
const SMALL_BUFFER_BYTES = 1 << 16;
/** Bytes moved a read when the header is put before the samples. */
const MOVE_BYTES = 1 << 20;

/** Put the header before the samples written: they move along by its length, last chunk first. */
function prependHead(file: string, head: string): void {
  const bytes = Buffer.from(head, 'utf8');
  const fd = openSync(file, 'r+');
  try {
    const chunk = Buffer.allocUnsafe(MOVE_BYTES);
    for (let at = fstatSync(fd).size; at > 0; ) {
      const from = Math.max(0, at - MOVE_BYTES);
      const n = readSync(fd, chunk, 0, at - from, from);
      writeSync(fd, chunk, 0, n, from + bytes.length);
      at = from;
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

/**
 * The end of a log's file name, which tells its subject x suite apart from the run's others: the
 * subject id, with a hash of the subject id and suite where either is not safe in a file name as
 * it is (suites "a b" and "a/b" are both "a-b" there, a long name is cut).
 */
function logKey(subjectId: string, suite: string): string {
  if (safeName(subjectId) === subjectId && safeName(suite) === suite) return subjectId;
  return `${safeName(subjectId)}-${sha256(`${subjectId}\u0000${suite}`).slice(0, 12)}`;
}

/** ',' in UTF-8: between samples. */
const COMMA = 0x2c;

/** A trial's sample written into its log, and tallied for the log's header. */
function addSample(g: LogFile, r: TrialRow): void {
  tallyTrial(g, r);
  if (g.written++ > 0) g.out.writeByte(COMMA);
  // The sample's text is encoded into the log's buffer at once (no text outlives its trial).
  writeSample(g.out, r);
  if (r.status === 'done' && r.reasoningTokens !== null) g.reasoningTokens = (g.reasoningTokens ?? 0) + r.reasoningTokens;
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

/** Write a run as Inspect eval logs into DIR (one `.json` per subject x suite); returns the files written. */
export async function exportInspectLogs(store: Store, runId: string, dir: string): Promise<InspectExportResult> {
  const run = await store.getRun(runId);
  if (!run) throw new ConfigError(`no run "${runId}" in ${store.location}`);
  makeDirectory(dir);
  const settings = new Map((await store.runSubjects(runId)).map((s) => [s.id, s.settings]));
  const { specs, planned } = await specsAndPlan(store, run.id);
  const stamp = run.createdAt
    .replace(/\.\d+Z$/, 'Z')
    .replace(/:/g, '-')
    .replace('Z', '+00-00');
  const logs = new Map<string, LogFile>();
  // The logs by subject, then suite (no key made and hashed again for every trial).
  const bySubject = new Map<string, Map<string, LogFile>>();
  const logOf = (r: TrialRow): LogFile => {
    let suites = bySubject.get(r.subjectId);
    if (!suites) bySubject.set(r.subjectId, (suites = new Map()));
    let g = suites.get(r.suite);
    if (!g) {
      const subject = specs.get(r.subjectId) ?? r.subjectId;
      const file = join(dir, `${stamp}_${safeName(r.suite)}_${safeName(subject)}_${logKey(r.subjectId, r.suite)}.json`);
      const holdOpen = logs.size < OPEN_LOGS;
      const out = new TextFileWriter(file, { holdOpen, ...(holdOpen ? {} : { bufferBytes: SMALL_BUFFER_BYTES }) });
      g = { ...newTally(subject, r.subjectId, r.suite), file, out, written: 0 };
      logs.set(`${r.subjectId}\u0000${r.suite}`, g);
      suites.set(r.suite, g);
    }
    return g;
  };
  try {
    for await (const rows of runTrialRowBatches(store, runId)) for (const r of rows) addSample(logOf(r), r);
    const files: InspectExportResult['files'] = [];
    for (const [key, g] of logs) {
      g.out.write(']}');
      g.out.close();
      // Planned trials neither done nor failed: the log is of an evaluation still under way.
      const started = (planned.get(key) ?? 0) - g.total > 0;
      prependHead(g.file, logHead(g, run, settings.get(g.subjectId) ?? {}, started));
      files.push({ path: g.file, subject: g.subject, suite: g.suite, samples: g.total });
    }
    return { files };
  } catch (err) {
    // No half-written log is left; the error reported is the first one.
    for (const g of logs.values()) {
      try {
        g.out.close();
      } catch {
        // closing is best effort here
      }
      rmSync(g.file, { force: true });
    }
    throw err;
  }
}
