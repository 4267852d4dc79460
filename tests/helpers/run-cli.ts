// The built CLI (dist/cli/main.js, what bin/mindscope.js runs) called in the test's own process:
// the same command, arguments, working directory and environment as a child process would get,
// without paying a Node start and a fresh module load for each command. stdout and stderr are
// captured as through a pipe (not a terminal), and the process is left as found: exit code,
// working directory, environment and the listeners a command adds.
// Tests that need a process of their own (signals, a kill part-way, several processes at once, a
// server left running, EPIPE) spawn bin/mindscope.js instead.

import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** The working directory of the command (default: the test's). */
  cwd?: string;
  /** Variables set for the command on top of the test's environment (undefined removes one). */
  env?: Record<string, string | undefined>;
}

const MAIN = join(__dirname, '..', '..', 'dist', 'cli', 'main.js');
type Main = (argv?: string[]) => Promise<void>;
let loaded: Main | undefined;
let running = false;

async function loadMain(): Promise<Main> {
  if (!existsSync(MAIN)) throw new Error('run "npm run build" before the CLI tests (npm test does)');
  loaded ??= ((await import(MAIN)) as { main: Main }).main;
  return loaded;
}

type Write = typeof process.stdout.write;

/** Send a stream's writes to `sink` (as a pipe would take them) until the returned function restores it. */
function capture(stream: NodeJS.WriteStream, sink: string[]): () => void {
  const write = stream.write;
  const tty = Object.getOwnPropertyDescriptor(stream, 'isTTY');
  Object.defineProperty(stream, 'isTTY', { value: undefined, configurable: true, writable: true });
  stream.write = ((
    chunk: string | Uint8Array,
    encoding?: BufferEncoding | ((err?: Error | null) => void),
    cb?: (err?: Error | null) => void,
  ) => {
    sink.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8'));
    const done = typeof encoding === 'function' ? encoding : cb;
    if (done) queueMicrotask(() => done(null));
    return true;
  }) as Write;
  return () => {
    stream.write = write;
    if (tty) Object.defineProperty(stream, 'isTTY', tty);
    else delete (stream as { isTTY?: boolean }).isTTY;
  };
}

/** Remove the listeners `fn` leaves on these emitters (a command's EPIPE and signal handlers). */
async function keepingListeners<T>(watched: Array<[NodeJS.EventEmitter, string]>, fn: () => Promise<T>): Promise<T> {
  const before = watched.map(([emitter, event]) => new Set(emitter.listeners(event)));
  try {
    return await fn();
  } finally {
    watched.forEach(([emitter, event], i) => {
      for (const l of emitter.listeners(event)) if (!before[i]!.has(l)) emitter.off(event, l as (...a: unknown[]) => void);
    });
  }
}

/** Run `mindscope ...args` in this process; one at a time (the working directory and environment are the process's). */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const main = await loadMain();
  if (running) throw new Error('runCli: one command at a time; spawn bin/mindscope.js for commands that run together');
  running = true;
  const out: string[] = [];
  const err: string[] = [];
  const cwd = process.cwd();
  const env = { ...process.env };
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  const restoreOut = capture(process.stdout, out);
  const restoreErr = capture(process.stderr, err);
  try {
    if (options.cwd) process.chdir(options.cwd);
    for (const [k, v] of Object.entries(options.env ?? {})) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    const watched: Array<[NodeJS.EventEmitter, string]> = [
      [process.stdout, 'error'],
      [process, 'SIGINT'],
      [process, 'SIGTERM'],
      [process, 'beforeExit'],
    ];
    await keepingListeners(watched, () => main([process.execPath, 'mindscope', ...args]));
    return { code: Number(process.exitCode ?? 0), stdout: out.join(''), stderr: err.join('') };
  } finally {
    restoreOut();
    restoreErr();
    process.chdir(cwd);
    for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
    Object.assign(process.env, env);
    process.exitCode = exitCode;
    running = false;
  }
}
