// Start tests/servers/model-server.mjs as a child process and talk to it over HTTP.

import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const SERVER_SCRIPT = fileURLToPath(new URL('../servers/model-server.mjs', import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: request bodies of several wire formats, read loosely by the tests
type WireBody = any;

export interface ModelServer {
  url: string;
  port: number;
  child: ChildProcess;
  stats(): Promise<{
    requests: number;
    byModel: Record<string, number>;
    bodies: Array<{ protocol: string; url: string; headersSeen: string[]; headers: Record<string, string>; body: WireBody }>;
  }>;
  stop(): Promise<void>;
}

export async function startModelServer(env: Record<string, string> = {}): Promise<ModelServer> {
  const child = spawn(process.execPath, [SERVER_SCRIPT], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once('line', (line) => resolve(JSON.parse(line).port));
    child.once('exit', (code) => reject(new Error(`model server exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    child,
    stats: async () => (await fetch(`${url}/stats`)).json(),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The environment that points every hosted provider (OpenAI, Anthropic, Google) at a local server, with test keys. */
export function providerEnv(url: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    OPENAI_BASE_URL: `${url}/v1`,
    OPENAI_API_KEY: 'sk-test',
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'ak-test',
    GOOGLE_BASE_URL: url,
    GOOGLE_API_KEY: 'gk-test',
  };
}
