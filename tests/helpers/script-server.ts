// Start one of tests/servers/*.mjs as a child process (it prints {"port": N} first) and talk to it
// over HTTP: its URL, its GET /stats, and stopping it.

import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface ScriptServer {
  url: string;
  child: ChildProcess;
  stats<T = Record<string, unknown>>(): Promise<T>;
  stop(): Promise<void>;
}

/** Start tests/servers/<name> with extra environment variables. */
export async function startScriptServer(name: string, env: Record<string, string> = {}): Promise<ScriptServer> {
  const script = fileURLToPath(new URL(`../servers/${name}`, import.meta.url));
  const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line).port));
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    child,
    stats: async <T>() => (await (await fetch(`${url}/stats`)).json()) as T,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
