// The probe suites: a run of one probe family on one base suite is a suite of its own
// (`probe-FAMILY-BASE`), whose items are the base items with their variants. They are made by
// `mindscope probe` (or `probeSuite` in code) from the base suite's loaded items, so any
// multiple-choice suite can be probed.

import type { Item, McqPayload } from '../../core/index.js';
import { defineSuite, type Suite } from '../../suites/index.js';
import type { Alteration } from './world/alterations.js';
import type { ProbePayload } from './protocol/payload.js';
import { probeProtocol } from './protocol/probe-protocol.js';
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

/** The suite id of a probe family on a base suite (sensitivity and belief probes generate their own stories). */
export function probeSuiteId(family: ProbeFamily, base: string): string {
  return family === 'sensitivity' || family === 'beliefs' ? `probe-${family}` : `probe-${family}-${base}`;
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
