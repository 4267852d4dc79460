// A small HTTP/1.1 client for the lean fetch's plain-http calls (a local model server: vLLM,
// llama.cpp, Ollama, LM Studio): keep-alive connections per origin, each request written in
// one piece (head and body), each reply read whole (a length or chunks, or to the close).
// undici's pools, which the lean fetch uses for https, spend about twice the CPU a call on the
// same work (its request objects, header checks, a WebAssembly parser, a stream per socket
// write): bench/http-clients.mjs. It takes the part of undici's dispatch interface lean-fetch.ts
// calls (dispatch with onRequestStart, onResponseStart, onResponseData, onResponseEnd and
// onResponseError), so that one handler serves both; the replies are read by http1-reply.ts.
//
// What it does not do, as lean-fetch.ts does not ask for it: redirects, upgrades, pipelining,
// request bodies other than a string, proxies. A connection the server closes before its reply
// is whole fails with code ECONNRESET ("socket hang up"), as node:http's; connecting fails with
// the system's error (ECONNREFUSED, ENOTFOUND, ...). An idle connection is closed after
// IDLE_MS (or a second before the server's own keep-alive timeout, when it names a shorter one),
// or when the server closes it, and never keeps the process alive.

import { connect, type Socket } from 'node:net';
import { IDLE_MS, type ReplyConnection, type ReplyHandler, ReplyReader } from './http1-reply.js';

export interface CallOptions {
  /** `http://host:port` */
  origin: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

/** A header value must not break the request's head (what undici and node:http refuse too). */
const BAD_VALUE = /[\r\n\0]/;
const BAD_TOKEN = /[^!#$%&'*+\-.^_`|~0-9A-Za-z]/;
/** Headers the client writes itself. */
const OWN = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'host']);
/** Header names seen, checked and in lower case (an SDK sends the same few on every call). */
const NAMES = new Map<string, string>();

function lowerName(name: string): string {
  let lower = NAMES.get(name);
  if (lower === undefined) {
    if (name === '' || BAD_TOKEN.test(name)) throw new TypeError(`invalid header name ${JSON.stringify(name)}`);
    lower = name.toLowerCase();
    if (NAMES.size < 1000) NAMES.set(name, lower);
  }
  return lower;
}

/** The caller's header lines of a request, checked, and whether they name the host. */
interface HeaderLines {
  lines: string;
  hostGiven: boolean;
}

function headerLines(headers: Record<string, string>): HeaderLines {
  let lines = '';
  let hostGiven = false;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || value === null) continue;
    const lower = lowerName(name);
    const v = String(value);
    if (BAD_VALUE.test(v)) throw new TypeError(`invalid header ${JSON.stringify(name)}`);
    if (OWN.has(lower)) {
      if (lower !== 'host') continue;
      hostGiven = true;
    }
    lines += `${name}: ${v}\r\n`;
  }
  return { lines, hostGiven };
}

/**
 * Header lines of frozen header sets, by the set: an SDK client hands every call of a kind the
 * same frozen set (openai-client.ts), which cannot change, so it is checked and written once.
 */
const FROZEN_LINES = new WeakMap<object, HeaderLines>();

/** A request's head: the request line, the caller's headers, host and length. */
function head(o: CallOptions, host: string): string {
  if (o.method === '' || BAD_TOKEN.test(o.method)) throw new TypeError(`invalid method ${JSON.stringify(o.method)}`);
  let given = FROZEN_LINES.get(o.headers);
  if (given === undefined) {
    given = headerLines(o.headers);
    if (Object.isFrozen(o.headers)) FROZEN_LINES.set(o.headers, given);
  }
  const hostLine = given.hostGiven ? '' : `host: ${host}\r\n`;
  return `${o.method} ${o.path} HTTP/1.1\r\n${given.lines}${hostLine}content-length: ${Buffer.byteLength(o.body)}\r\n\r\n`;
}

/** One keep-alive connection of a pool. */
class Connection implements ReplyConnection {
  readonly socket: Socket;
  call: ReplyReader | undefined;
  alive = true;
  idleTimer: NodeJS.Timeout | undefined;

  constructor(
    readonly pool: Pool,
    host: string,
    port: number,
  ) {
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on('data', (d: Buffer) => {
      if (this.call) this.call.take(d);
      // Bytes with no call waiting for them: the connection is out of step.
      else this.destroy();
    });
    this.socket.on('error', (err) => {
      this.alive = false;
      this.call?.fail(err);
      this.pool.drop(this);
    });
    this.socket.on('close', () => {
      this.alive = false;
      this.call?.closed();
      this.pool.drop(this);
    });
    // A server's end of an idle (or answered) connection: no further call goes on it.
    this.socket.on('end', () => {
      this.alive = false;
      this.pool.drop(this);
      this.call?.closed();
      this.socket.end();
    });
  }

  send(call: ReplyReader, request: string): void {
    this.call = call;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    this.socket.ref();
    this.socket.write(request);
  }

  /** The call's reply is whole: back to the pool, or closed. */
  done(keepAlive: boolean, idleMs = IDLE_MS): void {
    this.call = undefined;
    if (!keepAlive || !this.alive) {
      this.destroy();
      return;
    }
    this.socket.unref();
    this.idleTimer = setTimeout(() => this.destroy(), idleMs);
    this.idleTimer.unref();
    this.pool.idle(this);
  }

  destroy(): void {
    this.alive = false;
    clearTimeout(this.idleTimer);
    this.pool.drop(this);
    this.socket.destroy();
  }
}

/** The connections to one origin. */
class Pool {
  readonly #idle: Connection[] = [];
  readonly #all = new Set<Connection>();
  readonly #waiting: Array<() => void> = [];

  constructor(
    readonly host: string,
    readonly port: number,
    readonly hostHeader: string,
    readonly max: number,
  ) {}

  /** A connection for the next call: an idle one (the most recently used), a new one, or the next freed. */
  get(use: (c: Connection) => void): void {
    let c = this.#idle.pop();
    while (c && !c.alive) c = this.#idle.pop();
    if (c) {
      use(c);
      return;
    }
    if (this.#all.size < this.max) {
      const fresh = new Connection(this, this.host, this.port);
      this.#all.add(fresh);
      use(fresh);
      return;
    }
    this.#waiting.push(() => this.get(use));
  }

  idle(c: Connection): void {
    const next = this.#waiting.shift();
    if (next) {
      this.#idle.push(c);
      next();
    } else this.#idle.push(c);
  }

  drop(c: Connection): void {
    if (!this.#all.delete(c)) return;
    const i = this.#idle.indexOf(c);
    if (i >= 0) this.#idle.splice(i, 1);
    this.#waiting.shift()?.();
  }
}

/** Keep-alive pools by origin, at most `connections` to each. */
export class Http1Agent {
  readonly #pools = new Map<string, Pool>();

  constructor(readonly connections: number) {}

  dispatch(o: CallOptions, handler: ReplyHandler): void {
    let pool = this.#pools.get(o.origin);
    if (!pool) {
      const u = new URL(o.origin);
      const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
      pool = new Pool(host, Number(u.port || 80), u.host, this.connections);
      this.#pools.set(o.origin, pool);
    }
    let request: string;
    try {
      request = head(o, pool.hostHeader) + o.body;
    } catch (err) {
      handler.onResponseError?.({ abort() {} }, err as Error);
      return;
    }
    // A call stopped before it has a connection never takes one.
    let stopped = false;
    handler.onRequestStart?.(
      {
        abort: (reason) => {
          if (stopped) return;
          stopped = true;
          handler.onResponseError?.({ abort() {} }, reason);
        },
      },
      {},
    );
    if (stopped) return;
    pool.get((conn) => {
      if (stopped) {
        conn.done(true);
        return;
      }
      const call = new ReplyReader(conn, handler, o.method.toUpperCase());
      // From here the call's own control stops it (its connection closed with it).
      handler.onRequestStart?.(call, {});
      if (call.settled) return;
      conn.send(call, request);
    });
  }
}
