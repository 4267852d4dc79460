// Text written to a file through one reused buffer: each piece is encoded (UTF-8) straight into
// it and the buffer goes to the file when full. Joining pieces into a long string first costs
// more than the JSON that makes them: the string is flattened and encoded again in a buffer of
// its own for every write (and such buffers wait for the next garbage collection).

import { closeSync, openSync, writeSync } from 'node:fs';

const BUFFER_BYTES = 1 << 18;

/**
 * Text's UTF-8 bytes to keep (encoded once, written many times: writeBytes) in a buffer of
 * their own: a short one from Buffer.from shares an 8 KiB slab of Node's pool with the
 * short-lived buffers made after it, and keeping it keeps the whole slab.
 */
export function keptBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text, 'utf8'));
  bytes.write(text, 0, 'utf8');
  return bytes;
}

export interface TextFileWriterOptions {
  /** Write after what the file holds (else it is truncated). */
  append?: boolean;
  /** The buffer's size (256 KiB unless given). */
  bufferBytes?: number;
  /**
   * Keep the file open between writes (the default); false: open it for each write of the
   * buffer, for a process writing more files at once than it may hold open.
   */
  holdOpen?: boolean;
}

export class TextFileWriter {
  readonly #path: string;
  readonly #holdOpen: boolean;
  #fd: number;
  readonly #buffer: Buffer;
  #used = 0;
  #closed = false;

  /** Opens `path` for writing. */
  constructor(path: string, options: TextFileWriterOptions = {}) {
    this.#path = path;
    this.#holdOpen = options.holdOpen ?? true;
    this.#buffer = Buffer.allocUnsafe(options.bufferBytes ?? BUFFER_BYTES);
    this.#fd = openSync(path, options.append ? 'a' : 'w');
    if (!this.#holdOpen) {
      closeSync(this.#fd);
      this.#fd = -1;
    }
  }

  /** Queue `text`; it reaches the file when the buffer fills, on flush() or close(). */
  write(text: string): void {
    // A UTF-16 unit takes at most 3 bytes of UTF-8.
    if (text.length * 3 > this.#buffer.length - this.#used) {
      this.flush();
      if (text.length * 3 > this.#buffer.length) {
        this.#writeAll(Buffer.from(text, 'utf8'));
        return;
      }
    }
    this.#used += this.#buffer.write(text, this.#used, 'utf8');
  }

  /** Queue bytes as they are (text encoded once and kept, written many times). */
  writeBytes(bytes: Uint8Array): void {
    if (bytes.length > this.#buffer.length - this.#used) {
      this.flush();
      if (bytes.length > this.#buffer.length) {
        this.#writeAll(bytes);
        return;
      }
    }
    this.#buffer.set(bytes, this.#used);
    this.#used += bytes.length;
  }

  /** Queue one byte (an ASCII character's code: a comma, a bracket between pieces), without a call into the buffer's encoder. */
  writeByte(byte: number): void {
    if (this.#used === this.#buffer.length) this.flush();
    this.#buffer[this.#used++] = byte;
  }

  /** Write what is queued to the file. */
  flush(): void {
    if (this.#used === 0) return;
    this.#writeAll(this.#buffer.subarray(0, this.#used));
    this.#used = 0;
  }

  /** Flush and close the file (once; later calls do nothing). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      this.flush();
    } finally {
      if (this.#fd >= 0) closeSync(this.#fd);
    }
  }

  #writeAll(bytes: Uint8Array): void {
    const fd = this.#fd >= 0 ? this.#fd : openSync(this.#path, 'a');
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    } finally {
      if (fd !== this.#fd) closeSync(fd);
    }
  }
}
