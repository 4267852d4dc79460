// ml-matrix, loaded on first use: about 25 ms at start-up that most statistics never need (the
// audit's PCA mode, the intervals, the correlations). Its ES module re-exports the CommonJS
// build, so the classes required here are the ones an import of 'ml-matrix' gives.

import { createRequire } from 'node:module';
import type * as MlMatrix from 'ml-matrix';

let loaded: typeof MlMatrix | undefined;

/** The ml-matrix module, required on the first call. */
export function mlMatrix(): typeof MlMatrix {
  loaded ??= createRequire(import.meta.url)('ml-matrix') as typeof MlMatrix;
  return loaded;
}
