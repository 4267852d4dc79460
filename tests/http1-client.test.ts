// The lean fetch's HTTP/1.1 client for plain http, against real local servers that write their
// replies byte by byte where it matters: replies by length, in chunks (split anywhere), or up to
// the close; interim 100 replies; keep-alive reuse, a connection the server closes (idle, or
// mid-reply), and bad replies.

import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { leanFetch } from '../src/models/lean-fetch.js';

interface Raw {
  url: string;
  connections: () => number;
  requests: string[];
  close: () => void;
}

/** A TCP server answering each request (read whole: head and content-length body) with `reply(request, socket)`. */
async function rawServer(reply: (request: string, socket: Socket, n: number) => void | Promise<void>): Promise<Raw> {
  let connections = 0;
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const length = Number(/content-length: (\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const request = buf.slice(0, end + 4 + length);
        buf = buf.slice(end + 4 + length);
        requests.push(request);
        void reply(request, socket, requests.length);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => connections,
    requests,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

const pause = () => new Promise((r) => setTimeout(r, 2));
/** Write `text` in pieces of `size` bytes, each in a write of its own after a pause (each its own packet). */
async function dribble(socket: Socket, text: string, size: number): Promise<void> {
  for (let i = 0; i < text.length; i += size) {
    socket.write(text.slice(i, i + size));
    await pause();
  }
}

const post = (url: string, body = '{"q":"é"}', headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  leanFetch(`${url}/v1/chat/completions`, { method: 'POST', headers, body });

let server: Raw | undefined;
afterEach(() => server?.close());

describe('HTTP/1.1 client (plain http)', () => {
  it('sends the head and body as given, and reads a reply by length over one kept connection', async () => {
    server = await rawServer((_req, socket, n) => {
      const body = JSON.stringify({ n });
      socket.write(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nx-twice: a\r\nX-Twice: b\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
      );
    });
    const first = await post(server.url);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-twice')).toBe('a, b');
    expect(await first.json()).toEqual({ n: 1 });
    expect(await (await post(server.url)).json()).toEqual({ n: 2 });
    // Kept alive: both calls on one connection.
    expect(server.connections()).toBe(1);
    const request = server.requests[0]!;
    expect(request.startsWith('POST /v1/chat/completions HTTP/1.1\r\n')).toBe(true);
    expect(request).toMatch(/\r\ncontent-type: application\/json\r\n/);
    expect(request).toMatch(new RegExp(`\\r\\nhost: ${server.url.slice(7)}\\r\\n`));
    // The length in bytes (é is two), the body after the head.
    expect(request).toMatch(/\r\ncontent-length: 10\r\n\r\n/);
    expect(Buffer.from(request, 'latin1').toString('utf8').endsWith('{"q":"é"}')).toBe(true);
  });

  it('reads a chunked reply split anywhere: sizes, data, trailers, across packets', async () => {
    const json = JSON.stringify({ choices: [{ message: { content: 'Answer: A' } }], pad: 'x'.repeat(40) });
    const chunks = [json.slice(0, 7), json.slice(7, 50), json.slice(50)];
    const wire = `${chunks.map((c) => `${c.length.toString(16)};ext=1\r\n${c}\r\n`).join('')}0\r\nx-trailer: t\r\n\r\n`;
    server = await rawServer(async (_req, socket, n) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n');
      // One byte a packet for the first call, three for the second.
      await dribble(socket, wire, n === 1 ? 1 : 3);
    });
    expect(await (await post(server.url)).json()).toEqual(JSON.parse(json));
    expect(await (await post(server.url)).json()).toEqual(JSON.parse(json));
    expect(server.connections()).toBe(1);
  });

  it('reads a reply without a length up to the close, and opens a new connection after a close', async () => {
    server = await rawServer((_req, socket, n) => {
      if (n === 1) {
        socket.end('HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nto the end');
        return;
      }
      socket.write('HTTP/1.1 201 Created\r\nconnection: close\r\ncontent-length: 2\r\n\r\nok');
    });
    expect(await (await post(server.url)).text()).toBe('to the end');
    const second = await post(server.url);
    expect(second.status).toBe(201);
    expect(await second.text()).toBe('ok');
    expect(await (await post(server.url)).text()).toBe('ok');
    expect(server.connections()).toBe(3);
  });

  it("closes a connection the server's keep-alive timeout would close within a second", async () => {
    server = await rawServer((_req, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nkeep-alive: timeout=1\r\ncontent-length: 2\r\n\r\nok');
    });
    expect(await (await post(server.url)).text()).toBe('ok');
    expect(await (await post(server.url)).text()).toBe('ok');
    expect(server.connections()).toBe(2);
  });

  it('skips an interim 100 reply; a reply of no body (204) ends at its head', async () => {
    server = await rawServer((_req, socket, n) => {
      if (n === 1) socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi');
      else socket.write('HTTP/1.1 204 No Content\r\n\r\n');
    });
    expect(await (await post(server.url)).text()).toBe('hi');
    const empty = await post(server.url);
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });

  it('opens a new connection when the server closed the idle one', async () => {
    server = await rawServer((_req, socket) => {
      // Answers, then closes the connection a moment later (a server's keep-alive timeout).
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
      setTimeout(() => socket.end(), 10);
    });
    expect(await (await post(server.url)).text()).toBe('ok');
    await new Promise((r) => setTimeout(r, 50));
    expect(await (await post(server.url)).text()).toBe('ok');
    expect(server.connections()).toBe(2);
  });

  it('fails with ECONNRESET when the server closes before the reply is whole, and on a bad reply', async () => {
    server = await rawServer((_req, socket, n) => {
      if (n === 1) socket.end('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nshort');
      else if (n === 2) socket.end('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nab');
      else socket.write('NOT HTTP\r\n\r\n');
    });
    await expect(post(server.url)).rejects.toMatchObject({ code: 'ECONNRESET' });
    await expect(post(server.url)).rejects.toMatchObject({ code: 'ECONNRESET' });
    await expect(post(server.url)).rejects.toThrow(/bad HTTP reply: status line/);
  });

  it('writes a frozen header set the same on every call, reading it once', async () => {
    server = await rawServer((_req, socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
    });
    // A set that cannot change (an SDK client's headers of a kind of call): its lines are made once.
    let reads = 0;
    const headers = Object.freeze(
      Object.defineProperties({} as Record<string, string>, {
        'content-type': { value: 'application/json', enumerable: true },
        'x-counted': {
          enumerable: true,
          get: () => {
            reads++;
            return 'same';
          },
        },
      }),
    );
    for (let i = 0; i < 3; i++) expect(await (await post(server.url, '{}', headers)).text()).toBe('ok');
    expect(reads).toBe(1);
    expect(new Set(server.requests).size).toBe(1);
    expect(server.requests[0]).toMatch(/\r\ncontent-type: application\/json\r\nx-counted: same\r\nhost: /);
    // A set that may change is read on every call.
    const open: Record<string, string> = { 'x-open': '1' };
    await post(server.url, '{}', open);
    open['x-open'] = '2';
    await post(server.url, '{}', open);
    expect(server.requests.slice(-2).map((r) => /x-open: (\d)/.exec(r)?.[1])).toEqual(['1', '2']);
  });

  it('refuses a header that would break the request head', async () => {
    server = await rawServer((_req, socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
    });
    await expect(post(server.url, '{}', { 'x-bad': 'a\r\nx-injected: 1' })).rejects.toThrow(/invalid header "x-bad"/);
    await expect(post(server.url, '{}', { 'x bad': '1' })).rejects.toThrow(/invalid header name "x bad"/);
    expect(server.requests).toEqual([]);
  });
});
