// Numbers in the tables users give are read only as written decimals: Number() would read "0x1"
// as 1, "" and " " as 0, "0b1" as 1, while "inf" is refused. Every numeric CSV reader refuses
// them alike, naming the file, line and column.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHumanLabels } from '../src/studies/storyturn/index.js';
import { directorFromCounts, trianglesFromProfiles } from '../src/studies/vision/index.js';
import { parseChoices, parseRateTable } from '../src/studies/dialtom/index.js';
import { parseScoreTable, scoreColumn } from '../src/studies/audit/analysis/score-table.js';
import { decimalNumber } from '../src/core/index.js';
import { importHumanAnswers, loadHumanReferences, openStore } from '../src/index.js';
import { matrixFromCsv } from '../src/store/index.js';
import { evaluate } from './helpers/evaluate.js';
import { runCli } from './helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-numbers-'));
/** Spellings Number() reads as a number that no decimal numeral writes, or that are no number at all. */
const NOT_DECIMAL = ['0x1', '0b1', '0o1', '1e', 'inf', 'Infinity', '-Infinity', '1_0', '+1', '1 0', '', ' '];

const wide = (cell: string) => `suite,item_id,category,original_label,a,b\ns,q1,belief,,1,0\ns,q2,belief,,${cell},1\n`;

describe('response matrix cells', () => {
  it('are 1, 0, a decimal in [0, 1], true/false, or blank/NA: anything else names the file, line and column', () => {
    const read = (cell: string) => matrixFromCsv(wide(cell), 'm.csv').cells[1]![0];
    for (const [cell, value] of [
      ['1', 1],
      ['0', 0],
      ['0.25', 0.25],
      ['.5', 0.5],
      ['5e-1', 0.5],
      ['1.0', 1],
      ['True', 1],
      ['false', 0],
      ['', null],
      ['  ', null],
      ['NA', null],
      ['nan', null],
    ] as const)
      expect(read(cell)).toBe(value);
    for (const cell of ['0x1', '0b1', '0o1', '1e', 'inf', 'Infinity', '1_0', '+1'])
      expect(() => read(cell)).toThrow(
        `m.csv:3: column "a": "${cell}" is not a score in [0, 1] (not a decimal number; expected 1, 0, a decimal such as 0.5, true/false, or blank/NA)`,
      );
    for (const cell of [' 1 ', '1 ', '\t0'])
      expect(() => read(cell)).toThrow(
        `m.csv:3: column "a": "${cell}" is not a score in [0, 1] (spaces around the value; expected 1, 0, a decimal such as 0.5, true/false, or blank/NA)`,
      );
    expect(() => read('2')).toThrow(
      'm.csv:3: column "a": "2" is not a score in [0, 1] (expected 1, 0, a decimal such as 0.5, true/false, or blank/NA)',
    );
    // The long layout reads its value column the same way.
    const long = 'subject,suite,item_id,category,correct\nm1,s,q1,belief,1\nm1,s,q2,belief,0x1\n';
    expect(() => matrixFromCsv(long, 'l.csv')).toThrow(
      /^l\.csv:3: column "correct": "0x1" is not a score in \[0, 1\] \(not a decimal number/,
    );
  });

  it('audit --matrix refuses a hexadecimal cell as it refuses inf', async () => {
    const file = join(dir, 'm.csv');
    for (const cell of ['0x1', 'inf']) {
      writeFileSync(file, wide(cell));
      const r = await runCli(['audit', '--matrix', file]);
      expect(r.stderr).toBe(
        `mindscope: ${file}:3: column "a": "${cell}" is not a score in [0, 1] (not a decimal number; expected 1, 0, a decimal such as 0.5, true/false, or blank/NA)\n`,
      );
      expect(r.code).toBe(1);
    }
  });
});

describe('decimalNumber', () => {
  it('reads every number as JavaScript, Python and R write it, exactly, and nothing Number() reads beyond that', () => {
    // JavaScript's shortest round-trip form (1e-7, 0.1, 123.456), Python's repr (1e-05) and fixed forms.
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(decimalNumber(String(x))).toBe(x === 0 ? 0 : x);
        expect(decimalNumber(x.toExponential())).toBe(x === 0 ? 0 : x);
      }),
      { seed: 42, numRuns: 500 },
    );
    expect(decimalNumber('1e-05')).toBe(1e-5);
    // Any text at all: either not a number, or the number Number() reads from text with no spaces.
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('0', '1', '.', 'e', 'E', '-', '+', 'x', 'b', ' ', '_', 'I', 'n', 'f') }), (s) => {
        const v = decimalNumber(s);
        if (!Number.isNaN(v)) {
          expect(v).toBe(Number(s));
          expect(s.trim()).toBe(s);
          expect(s).toMatch(/^-?[\d.]/);
        }
      }),
      { seed: 42, numRuns: 2000 },
    );
    for (const s of NOT_DECIMAL) expect(decimalNumber(s)).toBeNaN();
  });
});

describe('every numeric CSV reader', () => {
  it('refuses hexadecimal, binary and blank numbers, naming the file and line', async () => {
    const scores = parseScoreTable('model,tomi,hitom\nm1,0.5,0x1\nm2,0.6,0.7\n', 's.csv');
    expect(scoreColumn(scores, 'tomi')).toEqual([0.5, 0.6]);
    expect(() => scoreColumn(scores, 'hitom')).toThrow('s.csv:2: column "hitom": "0x1" is not a number');
    const rates = 'model,domain,task,correct_rate,items\n';
    expect(() => parseRateTable(`${rates}m,MI,retrospective,0x32,10\n`, 'r.csv')).toThrow(/^r\.csv:2: correct_rate must be a percentage/);
    expect(() => parseRateTable(`${rates}m,MI,retrospective,50,0b1010\n`, 'r.csv')).toThrow(
      /^r\.csv:2: items must be a positive whole number/,
    );
    expect(parseRateTable(`${rates}m,MI,retrospective,50,10\n`, 'r.csv')[0]).toMatchObject({ rate: 50, items: 10 });
    const labels = 'subject,item,turn,label,replicate\n';
    expect(() => parseHumanLabels(`${labels}m,i,0x1,1,0\n`, 'h.csv')).toThrow(
      /^h\.csv:2: turn must be a whole number from 1 or blank, not "0x1"/,
    );
    expect(() => parseHumanLabels(`${labels}m,i,1,1,0o1\n`, 'h.csv')).toThrow(/^h\.csv:2: replicate must be a whole number, not "0o1"/);
    const counts = 'model,a,b,c_q1,c_q2,egocentric_b,scenes\n';
    expect(() => directorFromCounts(`${counts}m,0x1,1,1,1,1,4\n`, 'c.csv')).toThrow(/^c\.csv:2: a must be a whole number, not "0x1"/);
    expect(() => trianglesFromProfiles('subject,condition,intent,approp\nm,tom,0x2,1\n', loadHumanReferences(), 'p.csv')).toThrow(
      /^p\.csv:2: intent must lie in \[0, 5\], not "0x2"/,
    );
    expect(() => parseChoices('domain,item,choice,correct,options\nMI,1,A,B,0x4\n', 'ch.csv')).toThrow(
      /^ch\.csv:2: options must be a whole number from 2 to 26, not "0x4"/,
    );
    // analyze dialtom --positions: domain,A,B,C,D counts.
    const positions = join(dir, 'positions.csv');
    writeFileSync(positions, 'domain,A,B,C,D\nMI,3,0x2,1,1\n');
    const r = await runCli(['analyze', 'dialtom', '--positions', positions]);
    expect(r.stderr).toBe(`mindscope: ${positions}:2: position counts must be whole numbers\n`);
    // humans import: the turn column.
    const store = await openStore(':memory:');
    try {
      await evaluate({ store, suites: ['generated-tom'], limit: 1, models: ['agent:oracle'], runId: 'h' });
      const answers = join(dir, 'answers.csv');
      writeFileSync(answers, 'suite,item,answer,turn\ngenerated-tom,x,A,0x1\n');
      await expect(importHumanAnswers({ store, runId: 'h', name: 'p', file: answers })).rejects.toThrow(
        `${answers}:2: "turn" must be a whole number from 1, not "0x1"`,
      );
    } finally {
      await store.close();
    }
  });
});
