// `run --adaptive` on a multidimensional (M2PL) bank through the real runner: reference agents on
// the generated suite (tests/irt-run-helpers.ts calibrates a two-dimensional bank on a 40-model
// mixture panel). The test targets the accuracy's standard error, asks whole waves, estimates
// each agent's full-suite accuracy (measured on all 300 items in the same test), and a killed run
// resumes to the same items and result.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdaptiveSession } from '../src/analysis/index.js';
import { evaluate, type EvaluateResult, type IrtSuiteResult, openStore, type RunSpecInput, type Store } from '../src/index.js';
import { buildSetting, ITEMS, type IrtRunSetting, SUITE } from './irt-run-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-irt-run-mirt-'));
let store: Store;
let setting: IrtRunSetting;
const SUBJECTS = ['agent:oracle', 'agent:first-order', 'agent:reality', 'agent:random'];
const irt = { mode: 'adaptive' as const, bank: '', accuracySe: 0.03, maxItems: 60, wave: 4 };
let result: EvaluateResult;

const spec = (models = SUBJECTS): RunSpecInput => ({ suites: [SUITE], models, limit: ITEMS, irt });
const whole = (r: IrtSuiteResult) => r.accuracy.find((a) => a.category === null)!;
const outcome = (r: EvaluateResult) =>
  r.irt!.map((x) => ({ subject: x.subject, items: x.items, theta: x.theta, se: x.accuracySe, stop: x.stopReason, accuracy: x.accuracy }));

beforeAll(async () => {
  store = await openStore(join(dir, 'runs.db'));
  setting = await buildSetting(store, dir, 'm2pl');
  irt.bank = setting.bankPath;
  result = await evaluate(spec(), { store });
}, 240_000);

afterAll(async () => {
  await store?.close();
});

describe('run --adaptive on an M2PL bank', () => {
  it('is a two-dimensional bank', () => {
    expect(setting.bank.model).toBe('m2pl');
    expect(setting.bank.dimensions?.k).toBe(2);
  });

  it('stops at the accuracy SE or the budget, in whole waves, and estimates the full-suite accuracy', () => {
    expect(result.irt).toHaveLength(SUBJECTS.length);
    for (const x of result.irt!) {
      expect(x.mode).toBe('adaptive');
      expect(x.itemsAnswered % 4, `${x.subject}: whole waves`).toBe(0);
      expect(x.itemsAnswered).toBeLessThanOrEqual(60);
      expect(x.accuracySe, x.subject).toBeGreaterThan(0);
      if (x.stopReason === 'target-se') expect(x.accuracySe!).toBeLessThanOrEqual(0.03);
      else expect(x.stopReason).toBe('max-items');
      const row = whole(x);
      expect(row.pIrt.lower).toBeLessThanOrEqual(row.pIrt.estimate);
      expect(row.pIrt.upper).toBeGreaterThanOrEqual(row.pIrt.estimate);
      // Categories are estimated too (from the same posterior).
      expect(x.accuracy.filter((a) => a.category !== null).length).toBeGreaterThan(1);
    }
    // Measured: first-order 16 items, 0.840 against 0.880; reality 40 items, 0.570 against 0.520;
    // random 32 items, 0.416 against 0.343 (guessing, which the bank does not model). The oracle
    // answers everything right, which no finite ability does under the N(0, I) prior: the SE
    // does not stop a test whose answers are all the same, so it runs to the budget (60 items,
    // 0.979); stopped by the SE it would have ended after 12 items at 0.914.
    for (const s of ['agent:first-order', 'agent:reality']) {
      const x = result.irt!.find((r) => r.subject === s)!;
      expect(Math.abs(whole(x).pIrt.estimate - setting.full.get(s)!), s).toBeLessThan(0.06);
      expect(x.itemsAnswered, s).toBeLessThanOrEqual(ITEMS / 5);
    }
    const oracle = result.irt!.find((r) => r.subject === 'agent:oracle')!;
    expect(oracle.stopReason).toBe('max-items');
    expect(oracle.itemsAnswered).toBe(60);
    expect(whole(oracle).pIrt.estimate).toBeGreaterThan(0.97);
    const stopped = result.irt!.filter((x) => x.stopReason === 'target-se');
    expect(stopped.length).toBeGreaterThanOrEqual(2);
    // Every asked item ran through the runner and is stored once.
    expect(result.done + result.skipped).toBe(result.irt!.reduce((n, x) => n + x.itemsAnswered, 0));
  });

  it('asks what the session asks when fed the same answers (the runner changes nothing)', () => {
    const x = result.irt!.find((r) => r.subject === 'agent:first-order')!;
    const session = createAdaptiveSession(setting.bank, { suite: SUITE, accuracySe: 0.03, maxItems: 60, seed: 0 });
    const scores = new Map(setting.answers.get('agent:first-order')!);
    for (let ids = session.nextWave(4); ids.length > 0; ids = session.nextWave(4))
      for (const id of ids) session.record(id, scores.get(id)!);
    const r = session.result();
    expect(r.items).toEqual(x.items);
    expect(r.accuracySe).toBeCloseTo(x.accuracySe!, 12);
    expect(r.accuracy).toEqual(x.accuracy);
  });

  it('continues a killed run from the stored answers to the same result', async () => {
    const resumed = await openStore(join(dir, 'resume.db'));
    let done = 0;
    const stop = (e: { type: string }) => {
      if (e.type === 'done' && ++done === 20) throw new Error('killed');
    };
    await expect(evaluate(spec(), { store: resumed, onEvent: stop })).rejects.toThrow('killed');
    const again = await evaluate(spec(), { store: resumed });
    expect(again.skipped).toBeGreaterThanOrEqual(15);
    expect(outcome(again)).toEqual(outcome(result));
    await resumed.close();
  });

  it('refuses --accuracy-se with a one-dimensional bank', async () => {
    const oneD = await buildSetting(store, join(dir), '2pl');
    await expect(evaluate({ ...spec(['agent:oracle']), irt: { ...irt, bank: oneD.bankPath } }, { store })).rejects.toThrow(
      /--accuracy-se needs a multidimensional bank/,
    );
  });
});
