// Bundles vega-bundle/entry.mjs (Vega and Vega-Lite, everything they import) into one ES module,
// dist/vega/vega-bundle.js, that src/report/charts.ts loads when it is there. Not minified: the
// code is the packages' own, so the charts' SVG stays byte for byte what the packages render.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  logLevel: 'warn',
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: fileURLToPath(new URL('./entry.mjs', import.meta.url)),
    outDir: fileURLToPath(new URL('../dist/vega', import.meta.url)),
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    rolldownOptions: { output: { format: 'es', entryFileNames: 'vega-bundle.js' } },
  },
});
