// The reading side of the HTTP/1.1 client (http1-client.ts): one call's reply parsed as its
// bytes come from the connection (the head; then a body by length, in chunks, or up to the
// close; interim 1xx replies skipped) and handed to the call's handler in undici's
// dispatch-handler form. The connection is told when the reply is whole (to be kept or closed)
// and closed when the reply is bad or the call is stopped.

import type { IncomingHttpHeaders } from 'node:http';

/** How long an idle connection is kept for the next call (undici's default keep-alive). */
export const IDLE_MS = 4000;

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

/** What a reply reader needs of its connection. */
export interface ReplyConnection {
  /** Close the connection (a bad reply, a stopped call). */
  destroy(): void;
  /** The reply is whole: keep the connection for `idleMs` more, or close it. */
  done(keepAlive: boolean, idleMs: number): void;
}

const hangUp = (why: string) => Object.assign(new Error(`socket hang up (${why})`), { code: 'ECONNRESET' });
const protocolError = (why: string) => Object.assign(new Error(`bad HTTP reply: ${why}`), { code: 'HPE_INVALID' });

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
export class ReplyReader implements CallControl {
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
    readonly conn: ReplyConnection,
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
