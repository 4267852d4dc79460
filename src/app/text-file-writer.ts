// Text written to a file through one reused buffer: each piece is encoded (UTF-8) straight into
// it and the buffer goes to the file when full. Joining pieces into a long string first costs
// more than the JSON that makes them: the string is flattened and encoded again in a buffer of
// its own for every write (and such buffers wait for the next garbage collection).

import { closeSync, openSync, writeSync } from 'node:fs';

/** The buffer a writer makes for itself when given none. */
export const BUFFER_BYTES = 1 << 18;

export class TextFileWriter {
  readonly #fd: number;
  readonly #buffer: Buffer;
  #used = 0;
  #closed = false;

  /**
   * Opens `path` for writing (`append`: after what it holds), truncating it otherwise. `buffer`:
   * one to encode into (a writer opened often can reuse one; no two open writers may share it).
   */
  constructor(path: string, append = false, buffer?: Buffer) {
    this.#buffer = buffer ?? Buffer.allocUnsafe(BUFFER_BYTES);
    this.#fd = openSync(path, append ? 'a' : 'w');
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
      closeSync(this.#fd);
    }
  }

  #writeAll(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; ) at += writeSync(this.#fd, bytes, at, bytes.length - at);
  }
}
