// The build bundles Vega and Vega-Lite into one module (vega-bundle/, dist/vega/vega-bundle.js)
// that the report's charts load instead of the packages' ~300 modules: it renders the same SVG,
// byte for byte, as the packages do. Skipped where the build has not run (tests run the sources).

import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TopLevelSpec } from 'vega-lite';
import { accuracyTable } from '../src/analysis/index.js';
import { heatmapSpec, overallAccuracySpec } from '../src/report/index.js';
import type { ResponseRow } from '../src/store/index.js';

const BUNDLE = new URL('../dist/vega/vega-bundle.js', import.meta.url);

interface Vega {
  parse: typeof import('vega').parse;
  View: typeof import('vega').View;
  compile: typeof import('vega-lite').compile;
}

async function svgOf(vega: Vega, spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vega.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

function rows(): ResponseRow[] {
  const subjects = ['agent:oracle', 'agent:random', 'openai-compatible:http://127.0.0.1:8000/v1#model'];
  return subjects.flatMap((spec, s) =>
    Array.from({ length: 60 }, (_, i) => ({
      subjectId: `s${s}`,
      spec,
      suite: 'generated-tom',
      itemId: `i${i}`,
      itemHash: `h${i}`,
      category: ['belief', 'knowledge', 'percept', 'control'][i % 4]!,
      ability: null,
      replicate: 0,
      value: (i * (s + 1)) % 5 < 3 ? 1 : 0,
      parseFailed: false,
      meta: {},
    })),
  );
}

describe.skipIf(!existsSync(BUNDLE))('the Vega bundle', () => {
  it("renders the report's charts to the same SVG as the packages", async () => {
    const bundle = (await import(BUNDLE.href)) as Vega;
    const [vega, vl] = await Promise.all([import('vega'), import('vega-lite')]);
    const packages: Vega = { parse: vega.parse, View: vega.View, compile: vl.compile };
    const table = accuracyTable(rows());
    for (const spec of [overallAccuracySpec(table), heatmapSpec(table, 'category')]) {
      const svg = await svgOf(bundle, spec);
      expect(svg).toMatch(/^<svg/);
      expect(svg).toBe(await svgOf(packages, spec));
    }
  });
});
