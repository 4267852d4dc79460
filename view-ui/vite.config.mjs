// Builds the viewer's page (Preact) into dist/view-ui, with relative URLs so that a static
// export opens from any folder or from file://.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/view-ui', import.meta.url)),
    emptyOutDir: true,
    // One script, no module preloads: file:// pages cannot load module chunks.
    modulePreload: false,
  },
});
