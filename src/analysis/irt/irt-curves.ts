// Data behind the IRT charts: item characteristic and information curves, the test
// information with its standard error, and the Wright map's two distributions (models'
// abilities and items' difficulties on one scale).

import { irtItemInformation, irtProbability, irtTestInformation } from '../../stats/irt/index.js';
import { bankItemParams, type IrtBank } from './irt-bank.js';

export interface IrtCurvePoint {
  item: string;
  theta: number;
  probability: number;
  information: number;
}

export interface IrtChartData {
  curves: IrtCurvePoint[];
  test: Array<{ theta: number; information: number; se: number }>;
  wright: { models: Array<{ model: string; theta: number }>; items: Array<{ item: string; category: string; b: number }> };
}

/** Evenly spaced thetas on [from, to]. */
function grid(from: number, to: number, n: number): number[] {
  return Array.from({ length: n }, (_, k) => from + ((to - from) * k) / (n - 1));
}

/**
 * Chart data for a bank: curves of the named items (default: up to `maxItems` spread over the
 * difficulty range), test information per suite summed over all items, and the Wright map.
 */
export function irtChartData(bank: IrtBank, opts: { items?: string[]; maxItems?: number; range?: number } = {}): IrtChartData {
  const range = opts.range ?? 4;
  const thetas = grid(-range, range, 81);
  let chosen: number[];
  if (opts.items) {
    chosen = opts.items.map((id) => {
      const k = bank.items.findIndex((it) => it.id === id || `${it.suite}/${it.id}` === id);
      if (k < 0) throw new Error(`item ${id} is not in the bank`);
      return k;
    });
  } else {
    const order = bank.items.map((_, i) => i).sort((x, y) => bank.items[x]!.b - bank.items[y]!.b);
    const n = Math.min(opts.maxItems ?? 8, order.length);
    chosen = Array.from({ length: n }, (_, k) => order[Math.round((k * (order.length - 1)) / Math.max(1, n - 1))]!);
  }
  const curves: IrtCurvePoint[] = [];
  for (const i of chosen) {
    const it = bank.items[i]!;
    for (const t of thetas)
      curves.push({
        item: `${it.suite}/${it.id}`,
        theta: t,
        probability: irtProbability(it.a, it.b, it.c, t),
        information: irtItemInformation(it.a, it.b, it.c, t),
      });
  }
  const info = irtTestInformation(bankItemParams(bank), thetas);
  return {
    curves,
    test: thetas.map((t, k) => ({ theta: t, information: info[k]!, se: 1 / Math.sqrt(info[k]! + 1) })),
    wright: {
      models: bank.panel.abilities.map((m) => ({ model: m.model, theta: m.theta })),
      items: bank.items.map((it) => ({ item: `${it.suite}/${it.id}`, category: it.category, b: it.b })),
    },
  };
}
