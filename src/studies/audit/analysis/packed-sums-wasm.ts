// The stage-1 bootstrap's sums over drawn items in WebAssembly SIMD (packed-sums.wat is the
// source; the bytes below are its assembly, wabt 1.0.37 with SIMD, checked in the tests): two
// lanes an instruction and no bounds check a load: two to four times the JavaScript loop's
// speed at eight and sixteen lanes (3,000 items x 8 lanes: 21 -> 6 ms for 2,000 resamples),
// about even at six lanes on cells of a few hundred items (the indices' copy). A PackedItems'
// lanes are copied into the module's memory once and stay there while they are summed: two
// slots, as a stage-1 cell alternates between its two benchmarks' items. Where WebAssembly
// SIMD is missing, or the memory cannot grow to hold a cell, the caller keeps its JavaScript
// loops. The memory never shrinks: it keeps the largest cell's two slots.

import { kernelLoader } from '../../../stats/index.js';

const WASM_BASE64 =
  'AGFzbQEAAAABCAFgBH9/f38AAg8BA2VudgZtZW1vcnkCAAEDAwIAAAcPAgRzdW04AAAEc3VtNgABCrEEArACAgN/CHsCQANAIARBAWogAU8NASACIAAgBEECdGooAgBBBnRqIQUgAiAAIARBAnRqKAIEQQZ0aiEGIAcgBf0ABAD98AEhByAIIAX9AAQQ/fABIQggCSAF/QAEIP3wASEJIAogBf0ABDD98AEhCiALIAb9AAQA/fABIQsgDCAG/QAEEP3wASEMIA0gBv0ABCD98AEhDSAOIAb9AAQw/fABIQ4gBEECaiEEDAALCyAEIAFJBEAgAiAAIARBAnRqKAIAQQZ0aiEFIAcgBf0ABAD98AEhByAIIAX9AAQQ/fABIQggCSAF/QAEIP3wASEJIAogBf0ABDD98AEhCgsgAyAHIAv98AH9CwQAIAMgCCAM/fAB/QsEECADIAkgDf3wAf0LBCAgAyAKIA798AH9CwQwC/wBAgN/BnsCQANAIARBAWogAU8NASACIAAgBEECdGooAgBBMGxqIQUgAiAAIARBAnRqKAIEQTBsaiEGIAcgBf0ABAD98AEhByAIIAX9AAQQ/fABIQggCSAF/QAEIP3wASEJIAogBv0ABAD98AEhCiALIAb9AAQQ/fABIQsgDCAG/QAEIP3wASEMIARBAmohBAwACwsgBCABSQRAIAIgACAEQQJ0aigCAEEwbGohBSAHIAX9AAQA/fABIQcgCCAF/QAEEP3wASEIIAkgBf0ABCD98AEhCQsgAyAHIAr98AH9CwQAIAMgCCAL/fAB/QsEECADIAkgDP3wAf0LBCAL';

interface Kernel {
  memory: WebAssembly.Memory;
  sum6: (idx: number, count: number, packed: number, out: number) => void;
  sum8: (idx: number, count: number, packed: number, out: number) => void;
}

/** Off in tests of the JavaScript loops (withoutPackedSumsKernel). */
let enabled = true;

/** Whether the kernel runs here (WebAssembly SIMD compiled and instantiated), for tests. */
export function packedSumsKernelLoaded(): boolean {
  return load() !== null;
}

const load = kernelLoader(
  WASM_BASE64,
  1,
  (k): Kernel => ({ memory: k.memory, sum6: k.exports.sum6 as Kernel['sum6'], sum8: k.exports.sum8 as Kernel['sum8'] }),
);

/** The module's wasm bytes, for the test that compares them with packed-sums.wat. */
export function packedSumsWasmBytes(): Uint8Array {
  return Buffer.from(WASM_BASE64, 'base64');
}

/** Runs fn with the kernel off, so that the JavaScript loops it replaces can be tested. */
export function withoutPackedSumsKernel<T>(fn: () => T): T {
  enabled = false;
  try {
    return fn();
  } finally {
    enabled = true;
  }
}

/** Lane sums (up to 16 lanes: two groups of eight) written at offset 0. */
const OUT_BYTES = 128;

// Memory: [sums: OUT_BYTES][drawn indices: idxBytes][slot 0: slotBytes][slot 1: slotBytes].
let idxBytes = 0;
let slotBytes = 0;
const slots: Array<{ owner?: WeakRef<object>; used: number }> = [{ used: 0 }, { used: 0 }];
let calls = 0;

/** Forgets the layout and what the slots hold (tests start from an empty kernel memory). */
export function resetPackedSumsKernel(): void {
  idxBytes = 0;
  slotBytes = 0;
  for (const s of slots) {
    s.owner = undefined;
    s.used = 0;
  }
}

/** The byte offset of the slot holding owner's lanes (copied there now if they are not); -1 when the memory cannot hold them. */
function residentSlot(k: Kernel, owner: object, packed: Float64Array, count: number): number {
  const need = packed.byteLength;
  if (need > slotBytes || count * 4 > idxBytes) {
    // Larger than the layout holds: a new one, both slots emptied; kept only if the memory grows to it.
    const idx = Math.max(idxBytes, Math.ceil((count * 4) / 16) * 16);
    const slot = Math.max(slotBytes, Math.ceil(need / 16) * 16);
    const total = OUT_BYTES + idx + 2 * slot;
    const have = k.memory.buffer.byteLength;
    try {
      if (total > have) k.memory.grow(Math.ceil((total - have) / 65536));
    } catch {
      return -1;
    }
    idxBytes = idx;
    slotBytes = slot;
    for (const s of slots) s.owner = undefined;
  }
  let slot = slots.findIndex((s) => s.owner?.deref() === owner);
  if (slot < 0) {
    slot = slots[0]!.used <= slots[1]!.used ? 0 : 1;
    new Float64Array(k.memory.buffer, OUT_BYTES + idxBytes + slot * slotBytes, packed.length).set(packed);
    slots[slot]!.owner = new WeakRef(owner);
  }
  slots[slot]!.used = ++calls;
  return OUT_BYTES + idxBytes + slot * slotBytes;
}

/**
 * Sums of each lane over the drawn items into sums[0..lanes): lanes 6 (one group of six, item k's
 * at k * 6) or a multiple of 8 up to 16 (groups of eight, item k's lanes of group g at
 * (g * items + k) * 8), as PackedItems lays them out. `packed` must not change while `owner`
 * lives (its copy stays in the kernel's memory). False, and nothing written, without the kernel
 * or where its memory cannot grow to hold the lanes (the caller's JavaScript loops sum them).
 */
export function sumDrawnWasm(
  owner: object,
  packed: Float64Array,
  lanes: number,
  items: number,
  indices: Int32Array,
  sums: Float64Array,
): boolean {
  if (!enabled || (lanes !== 6 && lanes !== 8 && lanes !== 16)) return false;
  const k = load();
  if (!k) return false;
  const at = residentSlot(k, owner, packed, indices.length);
  if (at < 0) return false;
  new Int32Array(k.memory.buffer, OUT_BYTES, indices.length).set(indices);
  if (lanes === 6) k.sum6(OUT_BYTES, indices.length, at, 0);
  else for (let g = 0; g < lanes / 8; g++) k.sum8(OUT_BYTES, indices.length, at + g * items * 64, g * 64);
  sums.set(new Float64Array(k.memory.buffer, 0, lanes));
  return true;
}
