// The lean fetch the SDK clients use (undici's pools), against the real local model server: a
// reply read whole with what the SDKs read from it, the time limit (abort) and the failures the
// error mapping relies on (AbortError, a system code), a URL's credentials, and the built-in
// fetch for anything that is not a JSON string body over http(s).

import { getEventListeners } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { leanFetch, withTimeout } from '../src/models/lean-fetch.js';
import { boundedFetch, replyLimitOptions } from '../src/models/reply-limit.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server?.stop());

const post = (model: string, init: RequestInit = {}) =>
  leanFetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    headers: new Headers({ 'content-type': 'application/json' }),
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Answer: A?' }] }),
    ...init,
  });

describe('lean fetch', () => {
  it('reads a reply whole: status, headers, JSON once', async () => {
    const res = await post('ok');
    expect(res.ok).toBe(true);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/application\/json/);
    expect([...res.headers.entries()].some(([k]) => k === 'content-type')).toBe(true);
    const json = (await res.json()) as { choices: Array<{ message: { content: string } }> };
    expect(json.choices[0]!.message.content.length).toBeGreaterThan(0);
    await expect(res.text()).rejects.toThrow(/already been read/);
  });

  it('gives a non-2xx reply with its body, and answers calls in parallel', async () => {
    const res = await post('flaky-500-1');
    expect(res.ok).toBe(false);
    expect(res.status).toBe(500);
    expect((await res.text()).length).toBeGreaterThan(0);
    const replies = await Promise.all(Array.from({ length: 20 }, () => post('ok').then((r) => r.status)));
    expect(replies).toEqual(Array(20).fill(200));
  });

  it('aborts with an AbortError when the signal fires (the SDK time limit), before or during the call', async () => {
    const early = new AbortController();
    early.abort();
    await expect(post('ok', { signal: early.signal })).rejects.toMatchObject({ name: 'AbortError' });
    const late = new AbortController();
    setTimeout(() => late.abort(), 200);
    await expect(post('hang-1', { signal: late.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('stops a call after the time limit it carries (withTimeout), with the AbortError the SDK reads as a timeout', async () => {
    // On a fake clock, once the server holds the call: still waiting 1 ms before the limit, stopped at it.
    const seen = async () => (await server.stats()).byModel['hang-1000'] ?? 0;
    const held = await seen();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      let settled = false;
      const call = post('hang-1000', withTimeout({}, 150));
      call.then(
        () => (settled = true),
        () => (settled = true),
      );
      while ((await seen()) === held) await new Promise((r) => setImmediate(r));
      await vi.advanceTimersByTimeAsync(149);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      vi.useRealTimers();
    }
    // A call answered in time leaves no timer and no listener on its signal behind. The timers
    // the call sets for its limit are followed by handle (a count of every active timer would also
    // see the connection pools' own timers start and end while the call runs).
    const limitTimers: unknown[] = [];
    const cleared = new Set<unknown>();
    const realSet = globalThis.setTimeout;
    const realClear = globalThis.clearTimeout;
    const setSpy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number, ...args: unknown[]) => {
      const t = realSet(fn, ms, ...args);
      if (ms === 60_000) limitTimers.push(t);
      return t;
    }) as typeof setTimeout);
    const clearSpy = vi.spyOn(globalThis, 'clearTimeout').mockImplementation((t) => {
      cleared.add(t);
      realClear(t);
    });
    const signal = new AbortController().signal;
    try {
      const res = await post('ok', withTimeout({ signal }, 60_000));
      expect(res.status).toBe(200);
      await res.text();
    } finally {
      setSpy.mockRestore();
      clearSpy.mockRestore();
    }
    expect(limitTimers.length).toBe(1);
    expect(limitTimers.filter((t) => !cleared.has(t))).toEqual([]);
    expect(getEventListeners(signal, 'abort')).toEqual([]);
    // A body the lean path leaves to the built-in fetch keeps its limit too (a server that never answers).
    const silent = createHttpServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const form = new FormData();
      form.set('file', 'x');
      const { port } = silent.address() as { port: number };
      await expect(leanFetch(`http://127.0.0.1:${port}/v1/files`, withTimeout({ method: 'POST', body: form }, 150))).rejects.toMatchObject({
        name: 'AbortError',
      });
      // A Request's own signal still stops it under a longer limit.
      const ac = new AbortController();
      const request = new Request(`http://127.0.0.1:${port}/v1/files`, { method: 'POST', body: form, signal: ac.signal });
      const call = leanFetch(request, withTimeout({}, 60_000));
      setTimeout(() => ac.abort(), 100);
      await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('stops a call its signal aborts right after it is made (before the connection pools answer)', async () => {
    const before = (await server.stats()).byModel['hang-1000'] ?? 0;
    const ac = new AbortController();
    const call = post('hang-1000', { signal: ac.signal });
    ac.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    // Stopped before it was sent: the server never saw it (a call it held would never be answered).
    expect((await server.stats()).byModel['hang-1000'] ?? 0).toBe(before);
  });

  it('fails with the system code when the connection is reset or refused', async () => {
    await expect(post('reset-1')).rejects.toMatchObject({ code: 'ECONNRESET' });
    // A port nothing listens on: take one, then close it.
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    await expect(leanFetch(`http://127.0.0.1:${port}/v1/chat/completions`, { method: 'POST', body: '{}' })).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });

  it('keeps the reply cap: a reply past --max-reply-bytes fails as oversized; a GET goes to the built-in fetch as a stream', async () => {
    const capped = boundedFetch('openai:huge', leanFetch);
    // The cap travels in the init, as the SDKs pass their request's fetchOptions on.
    const call = (maxBytes: number) =>
      capped(`${server.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'huge-64', messages: [{ role: 'user', content: 'Answer: A?' }] }),
        ...replyLimitOptions(maxBytes).fetchOptions,
      });
    await expect(call(16 * 1024)).rejects.toMatchObject({ kind: 'oversized' });
    expect((await call(1024 * 1024)).status).toBe(200);
    // Batch results and files are read as streams by the SDKs: a GET keeps its body.
    const res = await leanFetch(`${server.url}/v1/models`);
    expect(res.body).not.toBeNull();
    await res.body?.cancel();
  });

  it("sends a URL's user and password as Basic credentials, unless the call carries its own; refuses a reply announced past the cap", async () => {
    // A plain server that answers with the Authorization header it got, or with a large body
    // whose length it announces.
    const raw = createHttpServer((req, res) => {
      const body = req.url === '/big' ? 'x'.repeat(4096) : JSON.stringify({ authorization: req.headers.authorization ?? null });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const port = (raw.address() as { port: number }).port;
    try {
      const call = async (url: string, headers: Record<string, string> = {}) =>
        (await (await leanFetch(url, { method: 'POST', headers, body: '{}' })).json()) as { authorization: string | null };
      expect((await call(`http://ann:s%40cret@127.0.0.1:${port}/v1`)).authorization).toBe(
        `Basic ${Buffer.from('ann:s@cret').toString('base64')}`,
      );
      expect((await call(`http://ann:s%40cret@127.0.0.1:${port}/v1`, { Authorization: 'Bearer own' })).authorization).toBe('Bearer own');
      expect((await call(`http://127.0.0.1:${port}/v1`)).authorization).toBeNull();
      const capped = boundedFetch('openai:big', leanFetch);
      await expect(
        capped(`http://127.0.0.1:${port}/big`, { method: 'POST', body: '{}', ...replyLimitOptions(1024).fetchOptions }),
      ).rejects.toMatchObject({ kind: 'oversized', message: expect.stringMatching(/announced 4096 bytes/) });
    } finally {
      raw.close();
    }
  });

  it('hands anything but a string body over http(s) to the built-in fetch', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ model: 'ok', messages: [{ role: 'user', content: 'hi' }] }));
    const res = await leanFetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bytes,
    });
    expect(res).toBeInstanceOf(Response);
    expect(res.status).toBe(200);
    await expect(leanFetch('data:text/plain,hello').then((r) => r.text())).resolves.toBe('hello');
  });
});
