// The Gram kernel (pair dots of rows) in WebAssembly SIMD, three to four times the plain
// JavaScript loop's speed: two doubles per instruction. pair-dots.wat is the source; the bytes
// below are its assembly (wabt 1.0.37, wat2wasm with SIMD), checked in the tests. The rows are
// copied into the module's memory (grown as needed, kept between calls) unless they already
// live there. Where WebAssembly SIMD is missing, pairDotsWasm returns undefined and the caller
// keeps its JavaScript loop.

const WASM_BASE64 =
  'AGFzbQEAAAABEgJgBH9/f38BfGAGf39/f39/AAIPAQNlbnYGbWVtb3J5AgABAwMCAAEHDAEIcGFpckRvdHMAAQrnCQI+AgF/AXwgAiEEAkADQCAEIANPDQEgBSAAIARBA3RqKwMAIAEgBEEDdGorAwCioCEFIARBAWohBAwACwsgBQulCQIPfw57IARBA3QhDUEAIQYCQANAIAYgBE8NASAEIAYgBWogBCAGIAVqSRshByAGIAcgBmtBfnFqIQhBACEJAkADQCAJQQFqIANPDQEgACAJIA1saiEOIA4gDWohDyAJIQoCQANAIApBA2ogA08NASABIAogDWxqIRAgECANaiERIBEgDWohEiASIA1qIRP9DAAAAAAAAAAAAAAAAAAAAAAhG/0MAAAAAAAAAAAAAAAAAAAAACEc/QwAAAAAAAAAAAAAAAAAAAAAIR39DAAAAAAAAAAAAAAAAAAAAAAhHv0MAAAAAAAAAAAAAAAAAAAAACEf/QwAAAAAAAAAAAAAAAAAAAAAISD9DAAAAAAAAAAAAAAAAAAAAAAhIf0MAAAAAAAAAAAAAAAAAAAAACEiIAYhCwJAA0AgCyAITw0BIAtBA3QhDCAOIAxq/QAEACEVIA8gDGr9AAQAIRYgECAMav0ABAAhFyARIAxq/QAEACEYIBIgDGr9AAQAIRkgEyAMav0ABAAhGiAbIBUgF/3yAf3wASEbIBwgFSAY/fIB/fABIRwgHSAVIBn98gH98AEhHSAeIBUgGv3yAf3wASEeIB8gFiAX/fIB/fABIR8gICAWIBj98gH98AEhICAhIBYgGf3yAf3wASEhICIgFiAa/fIB/fABISIgC0ECaiELDAALCyACIAlBAGogA2wgCkEAampBA3RqIRQgFCAUKwMAIBv9IQAgG/0hAaAgDiAQIAggBxAAoKA5AwAgAiAJQQBqIANsIApBAWpqQQN0aiEUIBQgFCsDACAc/SEAIBz9IQGgIA4gESAIIAcQAKCgOQMAIAIgCUEAaiADbCAKQQJqakEDdGohFCAUIBQrAwAgHf0hACAd/SEBoCAOIBIgCCAHEACgoDkDACACIAlBAGogA2wgCkEDampBA3RqIRQgFCAUKwMAIB79IQAgHv0hAaAgDiATIAggBxAAoKA5AwAgAiAJQQFqIANsIApBAGpqQQN0aiEUIBQgFCsDACAf/SEAIB/9IQGgIA8gECAIIAcQAKCgOQMAIAIgCUEBaiADbCAKQQFqakEDdGohFCAUIBQrAwAgIP0hACAg/SEBoCAPIBEgCCAHEACgoDkDACACIAlBAWogA2wgCkECampBA3RqIRQgFCAUKwMAICH9IQAgIf0hAaAgDyASIAggBxAAoKA5AwAgAiAJQQFqIANsIApBA2pqQQN0aiEUIBQgFCsDACAi/SEAICL9IQGgIA8gEyAIIAcQAKCgOQMAIApBBGohCgwACwsCQANAIAogA08NASABIAogDWxqIRAgAiAJIANsIApqQQN0aiEUIBQgFCsDACAOIBAgBiAHEACgOQMAIAIgCUEBaiADbCAKakEDdGohFCAUIBQrAwAgDyAQIAYgBxAAoDkDACAKQQFqIQoMAAsLIAlBAmohCQwACwsCQCAJIANPDQAgACAJIA1saiEOIAkhCgJAA0AgCiADTw0BIAEgCiANbGohECACIAkgA2wgCmpBA3RqIRQgFCAUKwMAIA4gECAGIAcQAKA5AwAgCkEBaiEKDAALCwsgBiAFaiEGDAALCws=';

interface Kernel {
  memory: WebAssembly.Memory;
  pairDots: (left: number, right: number, out: number, n: number, p: number, chunk: number) => void;
}

let kernel: Kernel | null | undefined;

function load(): Kernel | null {
  if (kernel !== undefined) return kernel;
  try {
    const bytes = Buffer.from(WASM_BASE64, 'base64');
    const memory = new WebAssembly.Memory({ initial: 16 });
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } });
    kernel = { memory, pairDots: instance.exports.pairDots as Kernel['pairDots'] };
  } catch {
    kernel = null;
  }
  return kernel;
}

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
  const need = (same ? 1 : 2) * size + n * n * 8;
  const have = k.memory.buffer.byteLength;
  if (need > have) k.memory.grow(Math.ceil((need - have) / 65536));
  const heap = new Float64Array(k.memory.buffer);
  const leftAt = 0;
  const rightAt = same ? 0 : size;
  const outAt = (same ? 1 : 2) * size;
  heap.set(left.subarray(0, n * p), leftAt / 8);
  if (!same) heap.set(right.subarray(0, n * p), rightAt / 8);
  heap.fill(0, outAt / 8, outAt / 8 + n * n);
  k.pairDots(leftAt, rightAt, outAt, n, p, chunk);
  return heap.slice(outAt / 8, outAt / 8 + n * n);
}
