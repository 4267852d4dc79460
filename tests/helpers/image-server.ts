// Start tests/servers/image-server.mjs (OpenAI's images API and a StoryTurn author) as a child process.

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../servers/image-server.mjs', import.meta.url));

export interface ImageServer {
  url: string;
  stats(): Promise<{
    requests: number;
    images: Array<{ model: string; prompt: string; size?: string; response_format?: string; auth: boolean }>;
  }>;
  stop(): Promise<void>;
}

/** The server, with IMAGE_SERVER_KEY (the key it demands) when `key` is given. */
export async function startImageServer(key?: string): Promise<ImageServer> {
  const child = spawn(process.execPath, [SCRIPT], {
    env: { ...process.env, ...(key ? { IMAGE_SERVER_KEY: key } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line).port));
    child.once('exit', (code) => reject(new Error(`image server exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    stats: async () => (await fetch(`${url}/stats`)).json(),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
