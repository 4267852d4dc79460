// The reply journal: every model reply the call cache takes is appended to a file of this
// process before anything else happens to it, and only then queued for the store's group
// commit (which waits up to GROUP_COMMIT_MS). A process killed in between (SIGKILL, a second
// Ctrl-C, the machine's OOM killer) thus loses no reply it was sent: the next process on the
// same store replays the journals of processes that no longer run into the call cache, and
// the trials that were not stored are answered from there instead of being paid for again.
//
// One folder per store (beside a SQLite file, `<file>-replies`; for a PostgreSQL database,
// `replies/<hash of its location>` under the cache root, core/user-cache.ts), one file per
// process, named by host and pid so that a live writer's file is never taken. A file whose replies are all committed is deleted. Appends are plain
// writes, not fsynced: they survive the process, not a power cut (as SQLite's WAL at
// synchronous=NORMAL, which the store runs with).

import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { cacheRoot } from '../../core/user-cache.js';

/** One journaled reply: what the store's cache insert takes. */
export interface JournalEntry {
  key: string;
  provider: string;
  model: string;
  /** The packed response (cache-rows.ts). */
  body: string;
  origin: string | null;
}

/** A file is sealed (new replies go to a new one) past this size, and deleted once its replies are committed. */
const SEGMENT_BYTES = 4 << 20;
/** node:crypto, loaded when a journal is used: a command that opens a store and journals nothing loads none. */
const crypto = () => process.getBuiltinModule('node:crypto');

/** Host names may hold characters a file name should not. */
const HOST = hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';

interface Segment {
  path: string;
  fd: number;
  bytes: number;
  /** Replies appended and not yet committed. */
  pending: number;
  sealed: boolean;
}

/** Whether a process with this pid runs on this machine. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The journal folder of a PostgreSQL store: in mindscope's cache folder, by a hash of the database's location. */
export function postgresJournalDir(location: string): string {
  return join(cacheRoot(), 'replies', crypto().createHash('sha256').update(location).digest('hex').slice(0, 16));
}

/** This process's journal of one store. */
export class ReplyJournal {
  #current: Segment | undefined;
  readonly #segments = new Set<Segment>();
  #serial = 0;
  /** Set when the folder cannot be written: replies then wait for the group commit alone. */
  #off = false;
  /** Set by close(): a file is deleted as soon as its last reply is committed. */
  #closing = false;

  constructor(readonly dir: string) {}

  /** Append a reply; returns what to call once it is committed to the store. */
  append(entry: JournalEntry): () => void {
    const segment = this.#open();
    if (!segment) return () => {};
    const line = `${JSON.stringify([entry.key, entry.provider, entry.model, entry.origin, entry.body])}\n`;
    try {
      segment.bytes += writeSync(segment.fd, line);
    } catch {
      this.#off = true;
      return () => {};
    }
    segment.pending++;
    if (segment.bytes >= SEGMENT_BYTES) segment.sealed = true;
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      segment.pending--;
      if (segment.pending === 0 && (segment.sealed || this.#closing)) this.#remove(segment);
    };
  }

  #open(): Segment | undefined {
    if (this.#off) return undefined;
    if (this.#current && !this.#current.sealed) return this.#current;
    try {
      mkdirSync(this.dir, { recursive: true });
      const path = join(this.dir, `${HOST}-${process.pid}-${crypto().randomBytes(4).toString('hex')}-${this.#serial++}.jsonl`);
      const segment: Segment = { path, fd: openSync(path, 'a'), bytes: 0, pending: 0, sealed: false };
      this.#segments.add(segment);
      // A sealed file with nothing pending has gone already; one still pending goes when its last reply commits.
      this.#current = segment;
      return segment;
    } catch {
      this.#off = true;
      return undefined;
    }
  }

  #remove(segment: Segment): void {
    this.#segments.delete(segment);
    if (this.#current === segment) this.#current = undefined;
    try {
      closeSync(segment.fd);
      unlinkSync(segment.path);
    } catch {
      // Gone already: nothing to keep.
    }
  }

  /**
   * At the store's close: files whose replies are all committed are deleted (and the folder,
   * when nothing else is in it); a file with replies that could not be committed stays, for
   * the next process to replay.
   */
  close(): void {
    this.#closing = true;
    for (const segment of [...this.#segments]) {
      if (segment.pending === 0) this.#remove(segment);
      else {
        segment.sealed = true;
        try {
          closeSync(segment.fd);
        } catch {
          // Closed already.
        }
      }
    }
    try {
      rmdirSync(this.dir);
    } catch {
      // Not empty (another process's file) or not there.
    }
  }

  /**
   * The journals in `dir` of processes of this machine that no longer run: their entries (a
   * line cut short by the kill is skipped) and a function that deletes their files once the
   * entries are stored.
   */
  static orphans(dir: string): { entries: JournalEntry[]; files: string[]; remove: () => void } {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return { entries: [], files: [], remove: () => {} };
    }
    const entries: JournalEntry[] = [];
    const files: string[] = [];
    for (const name of names) {
      const m = /^(.*)-(\d+)-[0-9a-f]{8}-\d+\.jsonl$/.exec(name);
      if (!m || m[1] !== HOST || Number(m[2]) === process.pid || running(Number(m[2]))) continue;
      const path = join(dir, name);
      let text: string;
      try {
        if (!statSync(path).isFile()) continue;
        text = readFileSync(path, 'utf8');
      } catch {
        continue;
      }
      files.push(path);
      for (const line of text.split('\n')) {
        if (!line) continue;
        try {
          const [key, provider, model, origin, body] = JSON.parse(line) as [string, string, string, string | null, string];
          if (typeof key === 'string' && typeof provider === 'string' && typeof model === 'string' && typeof body === 'string')
            entries.push({ key, provider, model, origin: typeof origin === 'string' ? origin : null, body });
        } catch {
          // The last line of a killed writer may be cut short: the reply it held was not complete.
        }
      }
    }
    const remove = () => {
      for (const f of files)
        try {
          unlinkSync(f);
        } catch {
          // Another process replayed and removed it first.
        }
      try {
        rmdirSync(dir);
      } catch {
        // Not empty, or gone.
      }
    };
    return { entries, files, remove };
  }
}
