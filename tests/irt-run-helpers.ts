// The setting of the IRT run tests: five reference agents answer all 300 items of the
// generated suite (the full-suite truth), and a 40-model calibration panel is built from their
// answers: each panel model answers each item as one of the agents would, drawn (seeded) with
// weights centred on the model's skill, so the panel varies in ability and the items keep the
// structure the agents give them (false-belief items are what the reality agent fails, ...).
// A 2PL bank (or a two-dimensional M2PL one) is calibrated on that panel with the items' stored
// content hashes.

import { join } from 'node:path';
import { calibrateBank, calibrateMirtBank, type IrtBank, writeIrtBank } from '../src/analysis/index.js';
import { createRng } from '../src/core/index.js';
import { evaluate, type ResponseMatrix, runMatrix, runPanel, type Store, writeMatrixCsv } from '../src/index.js';

export const SUITE = 'generated-tom';
export const ITEMS = 300;
const AGENTS = ['agent:oracle', 'agent:first-order', 'agent:reality', 'agent:first-option', 'agent:random'];

export interface IrtRunSetting {
  fullRunId: string;
  /** Full-suite accuracy of each agent, measured on all 300 items. */
  full: Map<string, number>;
  /** Full-suite accuracy per category of each agent. */
  fullByCategory: Map<string, Map<string, number>>;
  /** Each agent's score per item id, on all 300 items. */
  answers: Map<string, Map<string, number>>;
  bank: IrtBank;
  bankPath: string;
  panelPath: string;
}

/** A panel of `models` mixtures of the agents' answer vectors (see the file comment). */
function mixturePanel(agents: ResponseMatrix, models: number, seed: number): ResponseMatrix {
  const order = AGENTS.map((a) => agents.subjects.indexOf(a));
  const rng = createRng(`irt-run-panel:${seed}`);
  const subjects = Array.from({ length: models }, (_, j) => `panel-${String(j).padStart(2, '0')}`);
  const weights = subjects.map((_, j) => {
    const centre = (4 * (j + 0.5)) / models;
    const w = order.map((_, c) => Math.exp(-((c - centre) ** 2)));
    const s = w.reduce((x, y) => x + y, 0);
    return w.map((x) => x / s);
  });
  const cells = agents.cells.map((row) =>
    subjects.map((_, j) => {
      let u = rng.next();
      let c = 0;
      while (c < order.length - 1 && u > weights[j]![c]!) u -= weights[j]![c++]!;
      return row[order[c]!] ?? null;
    }),
  );
  return { subjects, items: agents.items, cells };
}

/** Run the agents on the full suite, build the panel and calibrate the bank (written under dir). */
export async function buildSetting(store: Store, dir: string, model: '2pl' | '3pl' | 'm2pl' = '2pl'): Promise<IrtRunSetting> {
  const full = await evaluate({ suites: [SUITE], models: AGENTS, limit: ITEMS }, { store });
  const matrix = await runMatrix(store, full.runId);
  const accuracy = new Map<string, number>();
  const byCategory = new Map<string, Map<string, number>>();
  matrix.subjects.forEach((s, j) => {
    const cats = new Map<string, { s: number; n: number }>();
    let sum = 0;
    matrix.cells.forEach((row, i) => {
      const v = row[j] ?? 0;
      sum += v;
      const c = matrix.items[i]!.category;
      const cur = cats.get(c) ?? { s: 0, n: 0 };
      cur.s += v;
      cur.n++;
      cats.set(c, cur);
    });
    accuracy.set(s, sum / matrix.items.length);
    byCategory.set(s, new Map([...cats].map(([c, v]) => [c, v.s / v.n])));
  });
  const { hashes, options } = await runPanel(store, [full.runId]);
  const panel = mixturePanel(matrix, 40, 1);
  const panelPath = join(dir, 'panel.csv');
  writeMatrixCsv(panelPath, panel);
  const bank =
    model === 'm2pl'
      ? calibrateMirtBank(panel, { dims: 2, hashes, source: 'mixture panel' })
      : model === '3pl'
        ? calibrateBank(panel, {
            model: '3pl',
            guessing: new Map([...options].map(([k, n]) => [k, 1 / n])),
            hashes,
            source: 'mixture panel',
          })
        : calibrateBank(panel, { model: '2pl', hashes, source: 'mixture panel' });
  const bankPath = join(dir, `bank-${model}.json`);
  writeIrtBank(bankPath, bank);
  const answers = new Map(matrix.subjects.map((s, j) => [s, new Map(matrix.items.map((it, i) => [it.itemId, matrix.cells[i]![j] ?? 0]))]));
  return { fullRunId: full.runId, full: accuracy, answers, fullByCategory: byCategory, bank, bankPath, panelPath };
}
