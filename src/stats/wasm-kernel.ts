// Instantiating the WebAssembly kernels (the Gram kernel here, the audit's bootstrap sums): each
// is a module, embedded as base64, that imports its memory as env.memory and uses SIMD.

/** The module's memory and exports, or null where it cannot be compiled or instantiated (no WebAssembly SIMD). */
function instantiateKernel(base64: string, initialPages: number): { memory: WebAssembly.Memory; exports: WebAssembly.Exports } | null {
  try {
    const memory = new WebAssembly.Memory({ initial: initialPages });
    const instance = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(base64, 'base64')), { env: { memory } });
    return { memory, exports: instance.exports };
  } catch {
    return null;
  }
}

/**
 * The kernel, instantiated once on first use (null where it cannot be: no WebAssembly SIMD),
 * with the exports `pick` names typed.
 */
export function kernelLoader<K>(
  base64: string,
  initialPages: number,
  pick: (k: { memory: WebAssembly.Memory; exports: WebAssembly.Exports }) => K,
): () => K | null {
  let kernel: K | null | undefined;
  return () => {
    if (kernel === undefined) {
      const k = instantiateKernel(base64, initialPages);
      kernel = k && pick(k);
    }
    return kernel;
  };
}
