// The probe suites: a run of one probe family on one base suite is a suite of its own
// (`probe-FAMILY-BASE`), whose items are the base items with their variants. They are made by
// `mindscope probe` (or `probeSuite` in code) from the base suite's loaded items, so any
// multiple-choice suite can be probed.

import type { Item, McqPayload } from '../../core/index.js';
import { defineSuite, type Suite } from '../../suites/index.js';
import type { Alteration } from './world/alterations.js';
import type { ProbePayload } from './protocol/payload.js';
import { probeProtocol } from './protocol/probe-protocol.js';
import { manifest } from './manifest.js';
import type { ProbeFamily } from './protocol/records.js';
import { beliefItems } from './variants/beliefs.js';
import { invarianceItems, type InvarianceOptions } from './variants/invariance.js';
import { sensitivityItems } from './variants/sensitivity.js';
import { shortcutItems } from './variants/shortcut.js';

/** How a probe family builds its variants. */
export interface ProbeOptions extends InvarianceOptions {
  /** Sensitivity: generated base questions per belief order; beliefs: stories. */
  count: number;
  orders?: readonly number[];
  alterations?: readonly Alteration[];
  /** Beliefs: the highest order listed. */
  maxOrder?: number;
}

/** The suite id of a probe family's run on a base suite (sensitivity and belief probes generate their stories: generated-tom). */
export function probeSuiteId(family: ProbeFamily, base: string): string {
  return `probe-${family}-${family === 'sensitivity' || family === 'beliefs' ? 'generated-tom' : base}`;
}

/** The probe items of a family: over the base items (invariance, shortcut) or generated stories (sensitivity, beliefs). */
export function probeItems(
  family: ProbeFamily,
  base: string,
  items: readonly Item<McqPayload>[],
  opts: ProbeOptions,
): Item<ProbePayload>[] {
  const suite = probeSuiteId(family, base);
  switch (family) {
    case 'invariance':
      return invarianceItems(suite, items, opts);
    case 'shortcut':
      return shortcutItems(suite, items, opts.seed);
    case 'sensitivity':
      return sensitivityItems(suite, { perOrder: opts.count, seed: opts.seed, orders: opts.orders, alterations: opts.alterations });
    case 'beliefs':
      return beliefItems(suite, { count: opts.count, seed: opts.seed, maxOrder: opts.maxOrder ?? 2 });
  }
}

/** A suite of ready probe items, run on the probe protocol. */
export function probeSuite(id: string, items: readonly Item<ProbePayload>[]): Suite {
  return defineSuite<ProbePayload>({
    id,
    describe: `validity probes (${items.length} items)`,
    protocol: probeProtocol,
    needsData: false,
    load: () => ({ items: [...items], warnings: [] }),
  });
}

/**
 * The probes' registered suites, with their default settings, for `mindscope run`: the
 * sensitivity probes of `--limit` generated belief questions (orders 1-4 in turn, every
 * alteration), and belief tracking on `--limit` generated stories (orders 1 and 2).
 */
export const PROBE_SUITES: readonly Suite[] = [
  defineSuite<ProbePayload>({
    id: 'probe-sensitivity',
    ...manifest.suiteSummaries['probe-sensitivity'],
    protocol: probeProtocol,
    load: ({ seed, count }) => {
      const n = count ?? 16;
      return { items: sensitivityItems('probe-sensitivity', { perOrder: Math.ceil(n / 4), seed }).slice(0, n), warnings: [] };
    },
  }),
  defineSuite<ProbePayload>({
    id: 'probe-beliefs',
    ...manifest.suiteSummaries['probe-beliefs'],
    protocol: probeProtocol,
    load: ({ seed, count }) => ({ items: beliefItems('probe-beliefs', { count: count ?? 8, seed, maxOrder: 2 }), warnings: [] }),
  }),
];
