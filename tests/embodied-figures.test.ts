// The run report's embodied figures: success by depth per model and the literal-functional gap.

import { describe, expect, it } from 'vitest';
import { depthPoints, episodeMetrics, renderEpisodeFigures, type EpisodeTrial } from '../src/studies/enacttom/index.js';

const trial = (subject: string, taskId: string, kDepth: number, functional: boolean, literal: boolean): EpisodeTrial => ({
  subject,
  taskId,
  replicate: 0,
  category: 'cooperative',
  kDepth,
  functional,
  literal,
  probesCorrect: literal ? 1 : 0,
  probesTotal: 1,
});

describe('embodied report figures', () => {
  it('plots functional success and the literal-functional gap per model and depth', async () => {
    // model-a solves both depth-1 tasks and one of two depth-2 tasks; it reports every belief right.
    // model-b solves everything and reports nothing right.
    const trials = [
      trial('model-a', 't1', 1, true, true),
      trial('model-a', 't2', 1, true, true),
      trial('model-a', 't3', 2, true, true),
      trial('model-a', 't4', 2, false, true),
      ...['t1', 't2'].map((t) => trial('model-b', t, 1, true, false)),
      ...['t3', 't4'].map((t) => trial('model-b', t, 2, true, false)),
    ];
    const points = depthPoints(episodeMetrics(trials, 1));
    const at = (s: string, d: number) => points.find((p) => p.subject === s && p.depth === d)!;
    expect(points).toHaveLength(4);
    expect(at('model-a', 1)).toMatchObject({ functional: 1, literal: 1, gap: 0, runs: 2 });
    expect(at('model-a', 2)).toMatchObject({ functional: 0.5, literal: 1, gap: 0.5 });
    expect(at('model-b', 2)).toMatchObject({ functional: 1, literal: 0, gap: -1 });
    const html = await renderEpisodeFigures(episodeMetrics(trials, 1));
    expect(html.match(/<svg/g)).toHaveLength(2);
    expect(html).toContain('Functional success by ToM depth');
    expect(html).toContain('Literal − functional gap by ToM depth');
    expect(html).toContain('model-b');
    expect(await renderEpisodeFigures([])).toBe('');
  });
});
