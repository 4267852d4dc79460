// What the report's charts use of Vega and Vega-Lite, bundled by vite.config.mjs beside this
// file into one module (dist/vega/vega-bundle.js): Node loads it in a third of the time it takes
// to load the ~300 modules of the packages themselves. Same code, same SVG.
export { parse, View } from 'vega';
export { compile } from 'vega-lite';
