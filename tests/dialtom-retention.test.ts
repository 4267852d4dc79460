// DialToM retention after verification (section 3.5), through the CLI: verified items over
// candidates from a release (the fixtures: four items per task and domain), and from verifiers'
// labels made here with a known truth: Dawid-Skene recovers it, retention follows, each
// annotator's error rate and confusion matrix show who errs and how, and the weak ones are
// flagged. The paper's 83.25% on the full release is checked in tests-shared/dialtom-retention.test.ts.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCandidateCounts, parseVerificationLabels, retentionFromCounts } from '../src/studies/dialtom/index.js';
import { runCli } from './helpers/run-cli.js';

const DATA = join(__dirname, 'fixtures', 'data');
const flip = (v: string) => (v === 'valid' ? 'invalid' : 'valid');

/** 40 retrospective items (28 valid), five verifiers: A, B, C always right, D wrong on every third item, E on every second. */
function verdicts(): string {
  const rows = ['item,annotator,label,task,domain'];
  for (let i = 0; i < 40; i++) {
    const truth = i < 28 ? 'valid' : 'invalid';
    const domain = i % 2 ? 'MI' : 'ESC';
    const given: Record<string, string> = {
      A: truth,
      B: truth,
      C: truth,
      D: i % 3 === 0 ? flip(truth) : truth,
      E: i % 2 === 0 ? flip(truth) : truth,
    };
    for (const [a, label] of Object.entries(given)) rows.push(`r${i},${a},${label},retrospective,${domain}`);
  }
  return `${rows.join('\n')}\n`;
}

describe('retention from counts', () => {
  it('verified items over candidates per task and domain, pooled and averaged; impossible counts are refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dialtom-retention-'));
    const r = await runCli(['analyze', 'dialtom-retention', '--data', DATA, '--candidates-each', '5', '--json'], { cwd: dir });
    expect(r.code).toBe(0);
    const cells = JSON.parse(r.stdout).counts as Array<{
      task: string;
      domain: string;
      retained: number;
      candidates: number;
      rate: number;
    }>;
    expect(cells.find((c) => c.task === 'retrospective' && c.domain === 'MI')).toMatchObject({ retained: 4, candidates: 5, rate: 0.8 });
    expect(cells.find((c) => c.task === 'prospective' && c.domain === 'pooled')).toMatchObject({ retained: 12, candidates: 15, rate: 0.8 });
    writeFileSync(join(dir, 'candidates.csv'), 'task,domain,candidates\nretrospective,MI,8\nretrospective,ESC,5\nprospective,MI,16\n');
    const text = await runCli(['analyze', 'dialtom-retention', '--data', DATA, '--candidates', 'candidates.csv'], { cwd: dir });
    expect(text.stdout).toMatch(/retrospective\s+MI\s+4\s+8\s+50\.00/);
    expect(text.stdout).toMatch(/retrospective\s+pooled\s+8\s+13\s+61\.54/);
    expect(text.stdout).toMatch(/retrospective\s+mean\s+65\.00/);
    expect(text.stdout).toMatch(/prospective\s+MI\s+4\s+16\s+25\.00/);
    expect(() =>
      retentionFromCounts(
        new Map([['prospective', new Map([['MI', 9]])]]),
        parseCandidateCounts('task,domain,candidates\nprospective,MI,4\n'),
      ),
    ).toThrow(/prospective MI: 9 verified items but only 4 candidates/);
    expect(() => parseCandidateCounts('task,domain,candidates\nprospective,MI,x\n', 'c.csv')).toThrow(
      /c\.csv:2: candidates must be a positive whole number/,
    );
    const none = await runCli(['analyze', 'dialtom-retention', '--data', DATA], { cwd: dir });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/needs candidate counts/);
  });
});

describe('retention from verifiers’ labels (Dawid-Skene)', () => {
  it('recovers the truth, gives retention, error rates and confusion matrices, and flags weak annotators', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dialtom-ds-'));
    writeFileSync(join(dir, 'verdicts.csv'), verdicts());
    const r = await runCli(['analyze', 'dialtom-retention', '--annotations', 'verdicts.csv', '--accept', 'valid', '--json'], { cwd: dir });
    expect(r.code).toBe(0);
    const v = JSON.parse(r.stdout).verification;
    expect(v.rule).toBe('kept when the aggregated label is "valid"');
    // Without a batch column each task is a batch; Gwet's AC1 of the five verifiers (computed by hand: pa 0.695, pe 0.4662).
    expect(v.batches).toEqual([expect.objectContaining({ batch: 'retrospective', items: 40, annotators: 5 })]);
    expect(v.batches[0].ac1).toBeCloseTo(0.4286249531659799, 10);
    const cell = (domain: string) => v.retention.find((c: { domain: string }) => c.domain === domain);
    // 28 of 40 valid: ESC (even items) 14 of 20, MI 14 of 20.
    expect(cell('pooled')).toMatchObject({ retained: 28, candidates: 40, rate: 0.7 });
    expect(cell('MI')).toMatchObject({ retained: 14, candidates: 20 });
    const err = Object.fromEntries(v.annotators.map((a: { annotator: string; errorRate: number }) => [a.annotator, a.errorRate]));
    expect(err.A).toBeCloseTo(0, 6);
    expect(err.D).toBeCloseTo(14 / 40, 6);
    expect(err.E).toBeCloseTo(20 / 40, 6);
    expect(v.annotators.filter((a: { flagged: boolean }) => a.flagged).map((a: { annotator: string }) => a.annotator)).toEqual(['D', 'E']);
    // D: wrong on 10 of the 28 valid items (0, 3, ..., 27) and 4 of the 12 invalid ones (30, 33, 36, 39).
    const d = v.annotators.find((a: { annotator: string }) => a.annotator === 'D');
    expect(d.categories).toEqual(['invalid', 'valid']);
    expect(d.confusion[1][0]).toBeCloseTo(10 / 28, 6);
    expect(d.confusion[0][1]).toBeCloseTo(4 / 12, 6);
    const text = await runCli(
      ['analyze', 'dialtom-retention', '--annotations', 'verdicts.csv', '--accept', 'valid', '--flag-above', '0.4'],
      { cwd: dir },
    );
    expect(text.stdout).toMatch(
      /retrospective\s+E\s+40\s+0\.500\s+FLAGGED\s+true invalid: invalid 0\.50 valid 0\.50; true valid: invalid 0\.50 valid 0\.50/,
    );
    expect(text.stdout).toMatch(/retrospective\s+D\s+40\s+0\.350\s+true invalid/);
    expect(text.stdout).toContain('1 annotator(s) flagged: E (retrospective)');
  });

  it('keeps an item when the aggregated answer is its intended answer, per batch; bad files are named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dialtom-ds-'));
    // 20 prospective items in two batches; the three verifiers agree on option B where the item says A (items 15-19).
    const rows = ['item,annotator,label,task,domain,batch,answer'];
    for (let i = 0; i < 20; i++)
      for (const a of ['A', 'B', 'C']) rows.push(`p${i},${a},${i >= 15 ? 'B' : 'A'},prospective,PFG,b${i % 2},A`);
    writeFileSync(join(dir, 'answers.csv'), `${rows.join('\n')}\n`);
    const v = JSON.parse(
      (await runCli(['analyze', 'dialtom-retention', '--annotations', 'answers.csv', '--json'], { cwd: dir })).stdout,
    ).verification;
    expect(v.rule).toBe("kept when the aggregated label is the item's answer");
    expect(v.batches.map((b: { batch: string; items: number }) => [b.batch, b.items])).toEqual([
      ['b0', 10],
      ['b1', 10],
    ]);
    expect(v.retention.find((c: { domain: string }) => c.domain === 'PFG')).toMatchObject({ retained: 15, candidates: 20, rate: 0.75 });
    expect(() => parseVerificationLabels('item,annotator\nx,a\n', 'a.csv')).toThrow(/a\.csv:1: no "label" column/);
    writeFileSync(join(dir, 'bad.csv'), 'item,annotator,label,domain\nx,a,valid,MI\nx,b,valid,ESC\n');
    const bad = await runCli(['analyze', 'dialtom-retention', '--annotations', 'bad.csv', '--accept', 'valid'], { cwd: dir });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/bad\.csv:3: item x: its task, domain or answer differs from line 2/);
    writeFileSync(join(dir, 'verdicts.csv'), verdicts());
    const noRule = await runCli(['analyze', 'dialtom-retention', '--annotations', 'verdicts.csv'], { cwd: dir });
    expect(noRule.code).not.toBe(0);
    expect(noRule.stderr).toMatch(/say which aggregated label keeps an item: an accepting label \(--accept\), or an "answer" column/);
  });
});
