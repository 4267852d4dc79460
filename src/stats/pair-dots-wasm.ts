// The Gram kernel (pair dots of rows) in WebAssembly SIMD, three to four times the plain
// JavaScript loop's speed: two doubles per instruction. pair-dots.wat is the source; the bytes
// below are its assembly (wabt 1.0.37, wat2wasm with SIMD), checked in the tests. The rows are
// copied into the module's memory (grown as needed, kept between calls), or written there by
// the caller (gramOfWrittenRows); a block's rows stay there for its next Gram matrix
// (blockGramWasm), and its weighted copy is made there. Where
// WebAssembly SIMD is missing, these functions return undefined and the caller keeps its
// JavaScript loop.

import { kernelLoader } from './wasm-kernel.js';

const WASM_BASE64 =
  'AGFzbQEAAAABGgNgBH9/f38BfGAFf39/f38AYAZ/f39/f38AAg8BA2VudgZtZW1vcnkCAAEDBAMAAQIHFAIFc2NhbGUAAQhwYWlyRG90cwACCpcMAz4CAX8BfCACIQQCQANAIAQgA08NASAFIAAgBEEDdGorAwAgASAEQQN0aisDAKKgIQUgBEEBaiEEDAALCyAFC54BAQV/IARBfnEhBwJAA0AgBSADTw0BIAUgBGxBA3QhCEEAIQYCQANAIAYgB08NASAIIAZBA3RqIQkgAiAJaiAAIAlq/QAEACABIAZBA3Rq/QAEAP3yAf0LBAAgBkECaiEGDAALCyAHIARJBEAgCCAHQQN0aiEJIAIgCWogACAJaisDACABIAdBA3RqKwMAojkDAAsgBUEBaiEFDAALCwu1CgIPfw57IARBA3QhDUEAIQYCQANAIAYgBE8NASAEIAYgBWogBCAGIAVqSRshByAGIAcgBmtBfnFqIQhBACEJAkADQCAJQQFqIANPDQEgACAJIA1saiEOIA4gDWohDyAJIQoCQANAIApBA2ogA08NASABIAogDWxqIRAgECANaiERIBEgDWohEiASIA1qIRP9DAAAAAAAAAAAAAAAAAAAAAAhG/0MAAAAAAAAAAAAAAAAAAAAACEc/QwAAAAAAAAAAAAAAAAAAAAAIR39DAAAAAAAAAAAAAAAAAAAAAAhHv0MAAAAAAAAAAAAAAAAAAAAACEf/QwAAAAAAAAAAAAAAAAAAAAAISD9DAAAAAAAAAAAAAAAAAAAAAAhIf0MAAAAAAAAAAAAAAAAAAAAACEiIAYhCwJAA0AgCyAITw0BIAtBA3QhDCAOIAxq/QAEACEVIA8gDGr9AAQAIRYgECAMav0ABAAhFyARIAxq/QAEACEYIBIgDGr9AAQAIRkgEyAMav0ABAAhGiAbIBUgF/3yAf3wASEbIBwgFSAY/fIB/fABIRwgHSAVIBn98gH98AEhHSAeIBUgGv3yAf3wASEeIB8gFiAX/fIB/fABIR8gICAWIBj98gH98AEhICAhIBYgGf3yAf3wASEhICIgFiAa/fIB/fABISIgC0ECaiELDAALCyACIAlBAGogA2wgCkEAampBA3RqIRQgFCAUKwMAIBv9IQAgG/0hAaAgCCAHSQR8IA4gECAIIAcQAAVEAAAAAAAAAAALoKA5AwAgAiAJQQBqIANsIApBAWpqQQN0aiEUIBQgFCsDACAc/SEAIBz9IQGgIAggB0kEfCAOIBEgCCAHEAAFRAAAAAAAAAAAC6CgOQMAIAIgCUEAaiADbCAKQQJqakEDdGohFCAUIBQrAwAgHf0hACAd/SEBoCAIIAdJBHwgDiASIAggBxAABUQAAAAAAAAAAAugoDkDACACIAlBAGogA2wgCkEDampBA3RqIRQgFCAUKwMAIB79IQAgHv0hAaAgCCAHSQR8IA4gEyAIIAcQAAVEAAAAAAAAAAALoKA5AwAgAiAJQQFqIANsIApBAGpqQQN0aiEUIBQgFCsDACAf/SEAIB/9IQGgIAggB0kEfCAPIBAgCCAHEAAFRAAAAAAAAAAAC6CgOQMAIAIgCUEBaiADbCAKQQFqakEDdGohFCAUIBQrAwAgIP0hACAg/SEBoCAIIAdJBHwgDyARIAggBxAABUQAAAAAAAAAAAugoDkDACACIAlBAWogA2wgCkECampBA3RqIRQgFCAUKwMAICH9IQAgIf0hAaAgCCAHSQR8IA8gEiAIIAcQAAVEAAAAAAAAAAALoKA5AwAgAiAJQQFqIANsIApBA2pqQQN0aiEUIBQgFCsDACAi/SEAICL9IQGgIAggB0kEfCAPIBMgCCAHEAAFRAAAAAAAAAAAC6CgOQMAIApBBGohCgwACwsCQANAIAogA08NASABIAogDWxqIRAgAiAJIANsIApqQQN0aiEUIBQgFCsDACAOIBAgBiAHEACgOQMAIAIgCUEBaiADbCAKakEDdGohFCAUIBQrAwAgDyAQIAYgBxAAoDkDACAKQQFqIQoMAAsLIAlBAmohCQwACwsCQCAJIANPDQAgACAJIA1saiEOIAkhCgJAA0AgCiADTw0BIAEgCiANbGohECACIAkgA2wgCmpBA3RqIRQgFCAUKwMAIA4gECAGIAcQAKA5AwAgCkEBaiEKDAALCwsgBiAFaiEGDAALCws=';

interface Kernel {
  memory: WebAssembly.Memory;
  pairDots: (left: number, right: number, out: number, n: number, p: number, chunk: number) => void;
  scale: (z: number, d: number, y: number, n: number, p: number) => void;
}

/** The block whose rows are at offset 0 (n x p doubles), unchanged since they were copied. */
let resident: { owner: WeakRef<object>; bytes: number } | undefined;

const load = kernelLoader(
  WASM_BASE64,
  16,
  (k): Kernel => ({ memory: k.memory, pairDots: k.exports.pairDots as Kernel['pairDots'], scale: k.exports.scale as Kernel['scale'] }),
);

/** The module's wasm bytes, for the test that compares them with pair-dots.wat. */
export function pairDotsWasmBytes(): Uint8Array {
  return Buffer.from(WASM_BASE64, 'base64');
}

/**
 * out[a * n + b] = sum_j left[a, j] right[b, j] for a <= b (rows of p doubles, row-major), in
 * column chunks of `chunk`; undefined when WebAssembly SIMD is not available. `left` and
 * `right` may be the same array (the Gram matrix).
 */
export function pairDotsWasm(left: Float64Array, right: Float64Array, n: number, p: number, chunk: number): Float64Array | undefined {
  const k = load();
  if (!k) return undefined;
  const same = left === right;
  const size = n * p * 8;
  // After a resident block's rows, which stay for that block's next call.
  const base = resident?.bytes ?? 0;
  const heap = reserve(k, base + (same ? 1 : 2) * size + n * n * 8);
  const leftAt = base;
  const rightAt = same ? base : base + size;
  const outAt = base + (same ? 1 : 2) * size;
  heap.set(left.subarray(0, n * p), leftAt / 8);
  if (!same) heap.set(right.subarray(0, n * p), rightAt / 8);
  heap.fill(0, outAt / 8, outAt / 8 + n * n);
  k.pairDots(leftAt, rightAt, outAt, n, p, chunk);
  return heap.slice(outAt / 8, outAt / 8 + n * n);
}

/**
 * pairDotsWasm(z, z) or, with weights d, pairDotsWasm(z, z diag(d)) (the same sums and products),
 * for the rows z of `owner`, which must not change while owner lives: they stay in the module's
 * memory for owner's next call, and the weighted copy is made there.
 */
export function blockGramWasm(
  owner: object,
  z: Float64Array,
  n: number,
  p: number,
  chunk: number,
  d?: Float64Array,
): Float64Array | undefined {
  const k = load();
  if (!k) return undefined;
  const size = n * p * 8;
  const dAt = size;
  const yAt = dAt + Math.ceil((p * 8) / 16) * 16;
  const outAt = yAt + size;
  const heap = reserve(k, outAt + n * n * 8);
  if (resident?.owner.deref() !== owner || resident.bytes !== size) {
    resident = undefined;
    heap.set(z.subarray(0, n * p), 0);
    resident = { owner: new WeakRef(owner), bytes: size };
  }
  if (d) {
    heap.set(d.subarray(0, p), dAt / 8);
    k.scale(0, dAt, yAt, n, p);
  }
  heap.fill(0, outAt / 8, outAt / 8 + n * n);
  k.pairDots(0, d ? yAt : 0, outAt, n, p, chunk);
  return heap.slice(outAt / 8, outAt / 8 + n * n);
}

/**
 * The Gram matrix (pair dots of each row with each) of n rows of p doubles that `write` puts
 * straight into the module's memory, so that no array of the rows is allocated: a fresh array
 * of megabytes costs its pages' first touch, on a virtual machine as much as the products.
 * `write` must not use the kernel itself (its view would be overwritten, or detached by a
 * growth). Undefined, and `write` not called, when WebAssembly SIMD is not available.
 */
export function gramOfWrittenRows(n: number, p: number, chunk: number, write: (rows: Float64Array) => void): Float64Array | undefined {
  const k = load();
  if (!k) return undefined;
  const size = n * p * 8;
  const heap = reserve(k, size + n * n * 8);
  // The rows go where a resident block's were.
  resident = undefined;
  write(heap.subarray(0, n * p));
  heap.fill(0, size / 8, size / 8 + n * n);
  k.pairDots(0, 0, size, n, p, chunk);
  return heap.slice(size / 8, size / 8 + n * n);
}

/** The module's memory as doubles, grown to at least `bytes` (growing keeps the contents). */
function reserve(k: Kernel, bytes: number): Float64Array {
  const have = k.memory.buffer.byteLength;
  if (bytes > have) k.memory.grow(Math.ceil((bytes - have) / 65536));
  return new Float64Array(k.memory.buffer);
}
