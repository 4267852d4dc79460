// Left truncation to the context window for openai-compatible servers: a model entry's
// contextWindow (a number, or 'server': read from the server) cuts the oldest context so that
// prompt + max tokens fit, with the server's tokenizer where it has one, and the trial's stored
// record says what was cut. Against tests/servers/context-limit-server.mjs, which enforces its
// window and refuses longer prompts as vLLM and llama.cpp's server do.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

const SERVER = fileURLToPath(new URL('./servers/context-limit-server.mjs', import.meta.url));
const children: ChildProcess[] = [];

async function startServer(kind: 'vllm' | 'llamacpp' | 'plain', limit = 200): Promise<string> {
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, SERVER_KIND: kind, CONTEXT_LIMIT: String(limit) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => resolve(JSON.parse(line).port));
    child.once('exit', (code) => reject(new Error(`context server exited with ${code}`)));
  });
  return `http://127.0.0.1:${port}`;
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
});

const dir = mkdtempSync(join(tmpdir(), 'mindscope-context-'));
const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');
writeFileSync(
  join(dir, 'items.jsonl'),
  [
    {
      id: 'short',
      context: 'Sally puts the ball in the basket.',
      q: 'Where will Sally look for the ball?',
      options: ['the basket', 'the box'],
      answer: 'A',
    },
    {
      id: 'long',
      context: `OLDEST ${words(300, 'w')} Sally puts the ball in the basket.`,
      q: 'Where will Sally look for the ball?',
      options: ['the basket', 'the box'],
      answer: 'A',
    },
  ]
    .map((x) => JSON.stringify(x))
    .join('\n'),
);

interface Trial {
  item_id: string;
  status: string;
  error: string | null;
  input_tokens: number;
  messages: Array<Array<{ role: string; content: string }>>;
  context_truncation: Array<Record<string, unknown>>;
}

/** Run the two items through the CLI with a config file naming the model entry; the exported trials and the server's log. */
async function run(url: string, entry: Record<string, unknown>, name: string, store = name) {
  const config = join(dir, `${name}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      suites: ['mcq'],
      data: join(dir, 'items.jsonl'),
      fields: { id: 'id', context: 'context', question: 'q', options: 'options', answer: 'answer', defaultCategory: 'belief' },
      models: [{ spec: `openai-compatible:${url}/v1#m`, ...entry }],
      settings: { maxTokens: 16 },
    }),
  );
  const db = join(dir, `${store}.db`);
  const r = await runCli(['run', '--config', config, '--db', db, '--quiet', '--json']);
  const out = join(dir, `${name}.jsonl`);
  const runId = r.stdout.trim() ? (JSON.parse(r.stdout) as { runId?: string }).runId : undefined;
  expect((await runCli(['export', 'trials', '--db', db, '--out', out, ...(runId ? ['--run-id', runId] : [])])).code).toBe(0);
  const trials = readFileSync(out, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Trial);
  const log = (await (await fetch(`${url}/stats`)).json()) as {
    requests: Array<{ promptTokens: number; maxTokens: number; start: string; status: number }>;
  };
  return { r, trials, byId: (id: string) => trials.find((t) => t.item_id === id)!, log: log.requests };
}

describe('context window of openai-compatible servers', () => {
  it("without one, the server refuses the long prompt as vLLM does; the trial fails with the server's reason", async () => {
    const url = await startServer('vllm');
    const { byId, log } = await run(url, {}, 'none');
    expect(byId('short').status).toBe('done');
    expect(byId('long').status).toBe('failed');
    expect(byId('long').error).toContain(
      "This model's maximum context length is 200 tokens. However, you requested 381 tokens (365 in the messages, 16 in the completion)",
    );
    expect(log.filter((l) => l.status === 400).every((l) => l.promptTokens === 365)).toBe(true);
  });

  it('--context-window on the command line gives every openai-compatible model the window', async () => {
    const url = await startServer('vllm');
    const db = join(dir, 'flag.db');
    const fields = 'id=id,context=context,question=q,options=options,answer=answer,defaultCategory=belief';
    const common = ['mcq', '--data', join(dir, 'items.jsonl'), '--fields', fields, '--db', db, '--max-tokens', '16', '--quiet', '--json'];
    const r = await runCli(['run', ...common, '--model', `openai-compatible:${url}/v1#m`, '--context-window', 'server']);
    expect(r.code, r.stderr).toBe(0);
    const out = join(dir, 'flag.jsonl');
    expect((await runCli(['export', 'trials', '--db', db, '--out', out, '--run-id', JSON.parse(r.stdout).runId])).code).toBe(0);
    const trials = readFileSync(out, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Trial);
    const long = trials.find((t) => t.item_id === 'long')!;
    expect(long.status).toBe('done');
    expect(long.context_truncation[0]).toMatchObject({ window: 200, windowSource: 'server', promptTokens: 365 });
    const bad = await runCli(['run', ...common, '--model', `openai-compatible:${url}/v1#m`, '--context-window', '0']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--context-window expects a whole number of tokens (1 or more) or "server", got "0"');
  });

  it("'server' (vLLM): the window from /v1/models, tokens from /tokenize with the chat template; the oldest context cut and the cut recorded", async () => {
    const url = await startServer('vllm');
    const { byId, log } = await run(url, { contextWindow: 'server' }, 'vllm');
    const short = byId('short');
    const long = byId('long');
    expect([short.status, long.status]).toEqual(['done', 'done']);
    expect(short.context_truncation).toEqual([]);
    const cut = long.context_truncation[0]!;
    expect(cut).toMatchObject({
      window: 200,
      windowSource: 'server',
      counting: 'server-chat',
      maxTokens: 16,
      promptTokens: 365,
      messagesDropped: 0,
    });
    // What the server saw fits (prompt + 16 <= 200) and is what the record says: the tokens kept,
    // the text after the characters cut (the end of the prompt: the question and its options).
    const sent = log.find((l) => l.start.startsWith('w'))!;
    expect(sent.status).toBe(200);
    expect(sent.promptTokens).toBe(cut.keptTokens);
    expect(sent.promptTokens + 16).toBeLessThanOrEqual(200);
    expect(sent.promptTokens).toBeGreaterThan(150);
    expect(long.input_tokens).toBe(cut.keptTokens);
    const original = long.messages[0]!.at(-1)!.content;
    expect(original.startsWith('OLDEST')).toBe(true);
    expect(
      original
        .slice(cut.charsCut as number)
        .split(/\s+/)
        .slice(0, 3)
        .join(' '),
    ).toBe(sent.start);
    expect(original.slice(cut.charsCut as number)).toContain('Where will Sally look for the ball?');
    expect(log.every((l) => l.status === 200)).toBe(true);
  });

  it("'server' (llama.cpp): the window from /props, tokens through /apply-template and /tokenize", async () => {
    const url = await startServer('llamacpp');
    const { byId, log } = await run(url, { contextWindow: 'server' }, 'llamacpp');
    const cut = byId('long').context_truncation[0]!;
    expect(byId('long').status).toBe('done');
    expect(cut).toMatchObject({ window: 200, windowSource: 'server', counting: 'server-template', promptTokens: 365 });
    expect(log.find((l) => l.start.startsWith('w'))!.promptTokens).toBe(cut.keptTokens);
  });

  it('a given window on a server with no tokenizer: an estimate (4 characters a token), labelled; a window smaller than the server its own', async () => {
    const url = await startServer('plain');
    const { byId, log } = await run(url, { contextWindow: 150 }, 'plain');
    const cut = byId('long').context_truncation[0]!;
    expect(cut).toMatchObject({ window: 150, windowSource: 'given', counting: 'estimate', maxTokens: 16 });
    expect(cut.keptTokens as number).toBeLessThanOrEqual(134);
    expect(byId('long').status).toBe('done');
    // The server's own count of what it was sent is under its window.
    expect(log.every((l) => l.status === 200 && l.promptTokens + 16 <= 200)).toBe(true);
    // 'server' on a server that reports no window: the model is stopped, saying so.
    const asked = await run(url, { contextWindow: 'server' }, 'plain-server');
    expect(asked.r.code).toBe(2);
    expect(asked.trials.filter((t) => t.status === 'done')).toEqual([]);
    expect(asked.r.stdout + asked.r.stderr).toContain(
      'the server reports no context window (neither max_model_len nor context_length in /v1/models, nor n_ctx in /props); give it as a number (contextWindow)',
    );
  });

  it('is part of the run: another window is another run id and another cache entry; refused for other providers', async () => {
    const url = await startServer('vllm');
    const a = await run(url, { contextWindow: 'server' }, 'id-a');
    // In the same store: the call cache does not answer a prompt cut to 120 tokens with the reply to one cut to 200.
    const b = await run(url, { contextWindow: 120 }, 'id-b', 'id-a');
    expect(JSON.parse(a.r.stdout).runId).not.toBe(JSON.parse(b.r.stdout).runId);
    expect(b.byId('long').context_truncation[0]).toMatchObject({ window: 120, windowSource: 'given', counting: 'server-chat' });
    const config = join(dir, 'agent.json');
    writeFileSync(
      config,
      JSON.stringify({
        suites: ['mcq'],
        data: join(dir, 'items.jsonl'),
        fields: { question: 'q', options: 'options', answer: 'answer', defaultCategory: 'belief' },
        models: [{ spec: 'agent:first-option', contextWindow: 100 }],
      }),
    );
    const refused = await runCli(['run', '--config', config, '--db', join(dir, 'agent.db'), '--quiet']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('agent:first-option: contextWindow applies to openai-compatible: servers');
  });
});
