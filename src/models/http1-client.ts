// A small HTTP/1.1 client for the lean fetch's plain-http calls (a local model server: vLLM,
// llama.cpp, Ollama, LM Studio): keep-alive connections per origin, each request written in
// one piece (head and body), each reply read whole (a length or chunks, or to the close).
// undici's pools, which the lean fetch uses for https, spend about twice the CPU a call on the
// same work (its request objects, header checks, a WebAssembly parser, a stream per socket
// write): bench/http-clients.mjs. It takes the part of undici's dispatch interface lean-fetch.ts
// calls (dispatch with onRequestStart, onResponseStart, onResponseData, onResponseEnd and
// onResponseError), so that one handler serves both.
//
// What it does not do, as lean-fetch.ts does not ask for it: redirects, upgrades, pipelining,
// request bodies other than a string, proxies. A connection the server closes before its reply
// is whole fails with code ECONNRESET ("socket hang up"), as node:http's; connecting fails with
// the system's error (ECONNREFUSED, ENOTFOUND, ...). An idle connection is closed after
// IDLE_MS (or a second before the server's own keep-alive timeout, when it names a shorter one),
// or when the server closes it, and never keeps the process alive.

import { connect, type Socket } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';

/** How long an idle connection is kept for the next call (undici's default keep-alive). */
const IDLE_MS = 4000;

/** What a call's handler is given to stop it. */
export interface CallControl {
  abort(reason: Error): void;
}

/** The calls a handler gets, in undici's dispatch-handler form. */
export interface ReplyHandler {
  onRequestStart?(control: CallControl, context: unknown): void;
  onResponseStart?(control: CallControl, status: number, headers: IncomingHttpHeaders, statusText: string): void;
  onResponseData?(control: CallControl, chunk: Buffer): void;
  onResponseEnd?(control: CallControl, trailers: IncomingHttpHeaders): void;
  onResponseError?(control: CallControl, error: Error): void;
}

export interface CallOptions {
  /** `http://host:port` */
  origin: string;
  path: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

const hangUp = (why: string) => Object.assign(new Error(`socket hang up (${why})`), { code: 'ECONNRESET' });
const protocolError = (why: string) => Object.assign(new Error(`bad HTTP reply: ${why}`), { code: 'HPE_INVALID' });

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

/** A request's head: the request line, the caller's headers, host and length. */
function head(o: CallOptions, host: string): string {
  if (o.method === '' || BAD_TOKEN.test(o.method)) throw new TypeError(`invalid method ${JSON.stringify(o.method)}`);
  let h = `${o.method} ${o.path} HTTP/1.1\r\n`;
  let hostGiven = false;
  for (const name in o.headers) {
    const value = o.headers[name];
    if (value === undefined || value === null) continue;
    const lower = lowerName(name);
    const v = String(value);
    if (BAD_VALUE.test(v)) throw new TypeError(`invalid header ${JSON.stringify(name)}`);
    if (OWN.has(lower)) {
      if (lower !== 'host') continue;
      hostGiven = true;
    }
    h += `${name}: ${v}\r\n`;
  }
  if (!hostGiven) h += `host: ${host}\r\n`;
  return `${h}content-length: ${Buffer.byteLength(o.body)}\r\n\r\n`;
}

enum Stage {
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkEnd,
  Trailers,
  ToClose,
  Done,
}

/** One call on one connection: its reply parsed as the bytes come. */
class Call implements CallControl {
  stage = Stage.Head;
  /** Bytes of the head (or of a chunk-size or trailer line) not yet complete. */
  pending: Buffer | undefined;
  /** Body bytes still to come (Length), or of the current chunk (ChunkData). */
  left = 0;
  keepAlive = true;
  /** How long the connection may stay idle after this reply. */
  idleMs = IDLE_MS;
  settled = false;

  constructor(
    readonly conn: Connection,
    readonly handler: ReplyHandler,
    readonly method: string,
  ) {}

  abort(reason: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.conn.destroy();
    this.handler.onResponseError?.(this, reason);
  }

  fail(err: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.conn.destroy();
    this.handler.onResponseError?.(this, err);
  }

  /** Take bytes from the socket. */
  take(data: Buffer): void {
    let at = 0;
    while (at < data.length && !this.settled) {
      switch (this.stage) {
        case Stage.Head: {
          const buf = this.pending ? Buffer.concat([this.pending, data.subarray(at)]) : at ? data.subarray(at) : data;
          const end = buf.indexOf('\r\n\r\n', 0, 'latin1');
          if (end < 0) {
            if (buf.length > 64 * 1024) {
              this.fail(protocolError('head over 64 KiB'));
              return;
            }
            this.pending = Buffer.from(buf);
            return;
          }
          this.pending = undefined;
          const rest = buf.subarray(end + 4);
          if (!this.#head(buf.toString('latin1', 0, end))) return;
          data = rest;
          at = 0;
          break;
        }
        case Stage.Length: {
          const n = Math.min(this.left, data.length - at);
          this.left -= n;
          if (n) this.#data(at === 0 && n === data.length ? data : data.subarray(at, at + n));
          at += n;
          if (this.left === 0) this.#end();
          break;
        }
        case Stage.ToClose:
          this.#data(at === 0 ? data : data.subarray(at));
          return;
        case Stage.ChunkData: {
          const n = Math.min(this.left, data.length - at);
          this.left -= n;
          if (n) this.#data(data.subarray(at, at + n));
          at += n;
          if (this.left === 0) this.stage = Stage.ChunkEnd;
          break;
        }
        case Stage.ChunkSize:
        case Stage.ChunkEnd:
        case Stage.Trailers: {
          const buf = this.pending ? Buffer.concat([this.pending, data.subarray(at)]) : data.subarray(at);
          const eol = buf.indexOf('\r\n', 0, 'latin1');
          if (eol < 0) {
            if (buf.length > 16 * 1024) {
              this.fail(protocolError('chunk line over 16 KiB'));
              return;
            }
            this.pending = Buffer.from(buf);
            return;
          }
          this.pending = undefined;
          const line = buf.toString('latin1', 0, eol);
          data = buf.subarray(eol + 2);
          at = 0;
          if (this.stage === Stage.ChunkEnd) {
            if (line !== '') {
              this.fail(protocolError('no CRLF after a chunk'));
              return;
            }
            this.stage = Stage.ChunkSize;
          } else if (this.stage === Stage.Trailers) {
            if (line === '') this.#end();
          } else {
            const size = Number.parseInt(line, 16);
            if (!/^[0-9A-Fa-f]+/.test(line) || !Number.isSafeInteger(size)) {
              this.fail(protocolError('bad chunk size'));
              return;
            }
            if (size === 0) this.stage = Stage.Trailers;
            else {
              this.left = size;
              this.stage = Stage.ChunkData;
            }
          }
          break;
        }
        case Stage.Done:
          return;
      }
    }
    // A reply with nothing after its head (a length of 0, no body) ends with the head.
    if (!this.settled && this.stage === Stage.Length && this.left === 0) this.#end();
    // Bytes past the reply: the connection is out of step with the server, and goes.
    else if (this.stage === Stage.Done && at < data.length) this.conn.destroy();
  }

  /** Parse the reply's head; false when the call failed. */
  #head(text: string): boolean {
    const lines = text.split('\r\n');
    const m = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/.exec(lines[0]!);
    if (!m) {
      this.fail(protocolError(`status line ${JSON.stringify(lines[0]!.slice(0, 80))}`));
      return false;
    }
    const status = Number(m[2]);
    const headers: IncomingHttpHeaders = {};
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      const had = headers[name];
      if (had === undefined) headers[name] = value;
      else if (Array.isArray(had)) had.push(value);
      else headers[name] = [had, value];
    }
    // An interim reply (100 Continue): the real one follows.
    if (status >= 100 && status < 200) {
      this.stage = Stage.Head;
      return true;
    }
    const connection = String(headers.connection ?? '').toLowerCase();
    this.keepAlive = m[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
    // The server's keep-alive timeout (Keep-Alive: timeout=N): the connection goes a second before it.
    const hint = headers['keep-alive'];
    if (hint !== undefined) {
      const t = /timeout=(\d+)/i.exec(String(hint));
      if (t) this.idleMs = Math.min(IDLE_MS, Math.max(0, Number(t[1]) * 1000 - 1000));
      if (this.idleMs === 0) this.keepAlive = false;
    }
    this.handler.onResponseStart?.(this, status, headers, m[3] ?? '');
    if (this.settled) return false;
    const te = String(headers['transfer-encoding'] ?? '').toLowerCase();
    const length = headers['content-length'];
    if (this.method === 'HEAD' || status === 204 || status === 304) {
      this.stage = Stage.Length;
      this.left = 0;
    } else if (te.includes('chunked')) this.stage = Stage.ChunkSize;
    else if (length !== undefined) {
      const n = Number(Array.isArray(length) ? length[0] : length);
      if (!Number.isSafeInteger(n) || n < 0) {
        this.fail(protocolError('bad content-length'));
        return false;
      }
      this.stage = Stage.Length;
      this.left = n;
    } else {
      this.stage = Stage.ToClose;
      this.keepAlive = false;
    }
    return true;
  }

  #data(chunk: Buffer): void {
    // The socket's buffers are not reused: a chunk may be kept as it is.
    this.handler.onResponseData?.(this, chunk);
  }

  #end(): void {
    if (this.settled) return;
    this.stage = Stage.Done;
    this.settled = true;
    this.conn.done(this.keepAlive, this.idleMs);
    this.handler.onResponseEnd?.(this, {});
  }

  /** The server closed the connection. */
  closed(): void {
    if (this.settled) return;
    if (this.stage === Stage.ToClose) {
      this.stage = Stage.Done;
      this.settled = true;
      this.handler.onResponseEnd?.(this, {});
      return;
    }
    this.fail(hangUp('the server closed the connection before its reply was complete'));
  }
}

/** One keep-alive connection of a pool. */
class Connection {
  readonly socket: Socket;
  call: Call | undefined;
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

  send(call: Call, request: string): void {
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
      const call = new Call(conn, handler, o.method.toUpperCase());
      // From here the call's own control stops it (its connection closed with it).
      handler.onRequestStart?.(call, {});
      if (call.settled) return;
      conn.send(call, request);
    });
  }
}
