// Item banks: calibration from a response matrix, the versioned JSON format (round trip,
// deterministic bytes, validation errors naming the field), refusal of changed items, and the
// chart specs rendered to SVG.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  calibrateBank,
  combineMatrices,
  formatIrtBank,
  irtChartData,
  irtItemKey,
  parseIrtBank,
  readIrtBank,
  verifyBankItems,
  writeIrtBank,
} from '../src/analysis/index.js';
import { estimatedAccuracySpec, informationSpec, itemCharacteristicSpec, renderSvg, wrightMapSpec } from '../src/report/index.js';
import { panel } from './irt-helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-irt-bank-'));
const sim = panel(40, 60, '2pl', 21);
const hashes = new Map(sim.matrix.items.map((it, i) => [irtItemKey(it.suite, it.itemId), i.toString(16).padStart(64, '0')]));
const bank = calibrateBank(sim.matrix, { model: '2pl', source: 'sim.csv', hashes });

describe('calibrateBank', () => {
  it('records parameters, SEs, fit, the panel, groups with gp-IRT validation, and the hashes', () => {
    expect(bank.format).toBe('mindscope-irt-bank');
    expect(bank.items).toHaveLength(60);
    expect(bank.panel.models).toEqual(sim.matrix.subjects);
    expect(bank.panel.abilities).toHaveLength(40);
    expect(bank.items.every((it) => it.a > 0 && it.se.a !== null && it.se.b !== null && it.fit.infit !== null && it.hash !== null)).toBe(
      true,
    );
    expect(bank.items[3]!.hash).toBe(hashes.get(irtItemKey('sim', bank.items[3]!.id)));
    // One whole-suite group and one per category, each validated (40 models >= 10).
    expect(bank.groups.map((g) => g.category)).toEqual([null, 'belief', 'desire', 'emotion', 'intention', 'knowledge']);
    expect(bank.groups.every((g) => g.irtMae !== null && g.irtMae > 0 && g.irtMae < 0.4 && g.meanVariance > 0)).toBe(true);
    // With 60 items the whole-suite error is small; per category (6 validation items each) it carries their sampling noise.
    expect(bank.groups[0]!.irtMae).toBeLessThan(0.1);
    expect(bank.tool.name).toBe('mindscope');
    expect(bank.tool.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("pCorrect and n are the panel's mean and count per item", () => {
    const row = sim.matrix.cells[7]!;
    expect(bank.items[7]!.n).toBe(40);
    expect(bank.items[7]!.pCorrect).toBeCloseTo(row.reduce((s: number, v) => s + (v ?? 0), 0) / 40, 12);
  });

  it('leaves out items nobody answered, says so, and warns about small panels and missing hashes', () => {
    const small = panel(8, 12, '2pl', 3);
    small.matrix.cells[2] = small.matrix.cells[2]!.map(() => null);
    const b = calibrateBank(small.matrix, { model: '2pl', source: 'x' });
    expect(b.items).toHaveLength(11);
    expect(b.dropped).toEqual([{ suite: 'sim', id: small.matrix.items[2]!.itemId, reason: 'no answers in the panel' }]);
    expect(b.warnings.join(' ')).toMatch(/8 models/);
    expect(b.warnings.join(' ')).toMatch(/no content hash/);
    expect(b.groups.every((g) => g.irtMae === null)).toBe(true);
  });
});

describe('the bank file', () => {
  it('round-trips, and the same panel and settings give the same bytes', () => {
    const path = join(dir, 'bank.json');
    writeIrtBank(path, bank);
    expect(readIrtBank(path)).toEqual(bank);
    const again = calibrateBank(sim.matrix, { model: '2pl', source: 'sim.csv', hashes });
    expect(formatIrtBank(again)).toBe(readFileSync(path, 'utf8'));
  });

  it('names the field of a malformed bank, the version of a newer one, and refuses hand-edited contents', () => {
    const raw = JSON.parse(formatIrtBank(bank));
    const bad = structuredClone(raw);
    bad.items[4].a = -1;
    expect(() => parseIrtBank(bad, 'b.json')).toThrow(/b\.json: invalid item bank: items\.4\.a/);
    const newer = { ...raw, formatVersion: 3 };
    expect(() => parseIrtBank(newer, 'b.json')).toThrow(/format version 3 is newer/);
    const edited = structuredClone(raw);
    edited.items[0].b += 0.5;
    expect(() => parseIrtBank(edited, 'b.json')).toThrow(/does not match the bank's contents/);
    expect(() => parseIrtBank({ format: 'other' }, 'b.json')).toThrow(/not an IRT item bank/);
    writeFileSync(join(dir, 'broken.json'), '{ not json');
    expect(() => readIrtBank(join(dir, 'broken.json'))).toThrow(/broken\.json: not JSON/);
  });

  it('refuses items whose content changed, naming them', () => {
    const current = bank.items.map((it) => ({ suite: it.suite, id: it.id, hash: it.hash! }));
    expect(verifyBankItems(bank, current)).toEqual({ verified: 60, unhashed: 0, absent: [] });
    const changed = current.map((c, k) => (k === 2 || k === 9 ? { ...c, hash: 'f'.repeat(64) } : c));
    expect(() => verifyBankItems(bank, changed, { file: 'bank.json' })).toThrow(
      new RegExp(`2 item\\(s\\) changed since calibration.*sim/${bank.items[2]!.id}, sim/${bank.items[9]!.id}`),
    );
    // Items missing from the current suite are reported, not refused.
    expect(verifyBankItems(bank, current.slice(1)).absent).toEqual([`sim/${bank.items[0]!.id}`]);
    const unhashed = calibrateBank(sim.matrix, { model: '2pl', source: 'x', validate: false });
    expect(verifyBankItems(unhashed, current).unhashed).toBe(60);
    expect(() => verifyBankItems(unhashed, current, { requireHashes: true })).toThrow(/60 item\(s\) have no content hash/);
  });

  it('combines matrices: items stacked, subjects united, an item in two files refused', () => {
    const a = panel(5, 10, '2pl', 1).matrix;
    const b = { ...panel(4, 10, '2pl', 2).matrix };
    b.items = b.items.map((it) => ({ ...it, suite: 'other' }));
    const both = combineMatrices([a, b]);
    expect(both.items).toHaveLength(20);
    expect(both.subjects).toEqual(a.subjects);
    expect(both.cells[15]![4]).toBeNull();
    expect(() => combineMatrices([a, a])).toThrow(/appears in two matrices/);
  });
});

describe('IRT charts', () => {
  it('render to SVG: item curves, information, Wright map, estimated vs full', async () => {
    const data = irtChartData(bank, { maxItems: 4 });
    expect(new Set(data.curves.map((c) => c.item)).size).toBe(4);
    expect(data.wright.models).toHaveLength(40);
    // Test information at theta is the sum of the items' informations.
    const mid = data.test[40]!;
    expect(mid.theta).toBeCloseTo(0, 12);
    expect(mid.se).toBeCloseTo(1 / Math.sqrt(mid.information + 1), 12);
    for (const spec of [itemCharacteristicSpec(data), informationSpec(data), wrightMapSpec(data)]) {
      const svg = await renderSvg(spec);
      expect(svg.startsWith('<svg')).toBe(true);
    }
    const svg = await renderSvg(
      estimatedAccuracySpec([
        { model: 'm1', full: 0.6, estimate: 0.62, lower: 0.55, upper: 0.69, method: 'p-IRT' },
        { model: 'm2', full: 0.3, estimate: 0.28, lower: 0.2, upper: 0.36, method: 'p-IRT' },
      ]),
    );
    expect(svg).toContain('Estimated vs full-suite accuracy');
    expect(await renderSvg(wrightMapSpec(data))).toContain('Wright map');
  });
});
