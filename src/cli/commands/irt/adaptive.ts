// `mindscope irt adaptive`: replay adaptive tests on answers already recorded, to see how few items
// reach the target standard error and how close the estimate comes to the full accuracy.

import type { Command } from 'commander';
import { InputError } from '../../../index.js';
import { combineMatrices, createAdaptiveSession, irtItemKey, readIrtBank, runBankMirtAdaptive } from '../../../analysis/index.js';
import { formatTextTable } from '../../../report/index.js';
import { intOption, numberOption } from '../../options.js';
import { pct, print, readMatrixFile } from './shared.js';

export function registerAdaptive(irt: Command): void {
  irt
    .command('adaptive')
    .description('replay adaptive tests on recorded answers: items used, ability, SE and estimated against full accuracy')
    .requiredOption('--bank <file>', 'item bank JSON')
    .requiredOption('--answers <file...>', "response matrices with every model's answers to the suite")
    .option('--suite <id>', 'suite to test (when the bank has several)')
    .option('--se <t>', 'target standard error of ability', numberOption('--se'), 0.25)
    .option(
      '--accuracy-se <t>',
      'multidimensional banks: target standard error of the accuracy estimate (0.02 = 2 points)',
      numberOption('--accuracy-se'),
      0.02,
    )
    .option('--max-items <n>', 'item budget', intOption('--max-items', 1))
    .option('--min-items <n>', 'fewest items before stopping', intOption('--min-items', 1), 5)
    .option('--randomesque <n>', 'exposure control: draw among the n most informative items (1 = none)', intOption('--randomesque', 1), 5)
    .option('--no-balance', 'no content balancing across categories')
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--json', 'print JSON')
    .action(
      async (f: {
        bank: string;
        answers: string[];
        suite?: string;
        se: number;
        accuracySe: number;
        maxItems?: number;
        minItems: number;
        randomesque: number;
        balance: boolean;
        seed: number;
        json?: boolean;
      }) => {
        const bank = readIrtBank(f.bank);
        const matrix = combineMatrices(await Promise.all(f.answers.map(readMatrixFile)));
        const results = matrix.subjects.map((subject, j) => {
          const byIdOf = () => {
            const m = new Map<string, number>();
            matrix.items.forEach((it, i) => {
              const v = matrix.cells[i]![j];
              if (v !== null && v !== undefined) m.set(irtItemKey(it.suite, it.itemId), v);
            });
            return m;
          };
          if (bank.model === 'm2pl') {
            // Multidimensional: the test stops at the accuracy's SE (--accuracy-se); there is no single theta.
            const answers = byIdOf();
            const r = runBankMirtAdaptive(
              bank,
              (suite, id) => {
                const v = answers.get(irtItemKey(suite, id));
                if (v === undefined) throw new InputError(`${subject} has no answer to ${suite}/${id}, which the adaptive test asked`);
                return v;
              },
              { suite: f.suite, targetSe: f.accuracySe, maxItems: f.maxItems, minItems: f.minItems },
            );
            const full = bank.items.filter((it) => it.suite === r.suite).map((it) => answers.get(irtItemKey(it.suite, it.id)));
            const seen = full.filter((v): v is number => v !== undefined);
            return {
              subject,
              suite: r.suite,
              theta: null,
              se: r.se,
              itemsUsed: r.itemsUsed,
              stopReason: r.stopReason,
              estimate: r.estimate,
              fullAccuracy: seen.length > 0 ? seen.reduce((s, v) => s + v, 0) / seen.length : null,
              items: r.items,
            };
          }
          const session = createAdaptiveSession(bank, {
            suite: f.suite,
            targetSe: f.se,
            maxItems: f.maxItems,
            minItems: f.minItems,
            exposure: f.randomesque > 1 ? { method: 'randomesque', candidates: f.randomesque } : { method: 'none' },
            contentBalance: f.balance,
            seed: f.seed + j,
          });
          const byId = new Map<string, number>();
          let full = 0;
          let n = 0;
          matrix.items.forEach((it, i) => {
            const v = matrix.cells[i]![j];
            if (v === null || v === undefined) return;
            byId.set(irtItemKey(it.suite, it.itemId), v);
          });
          const suite = session.result().suite;
          for (const it of bank.items) {
            const v = byId.get(irtItemKey(it.suite, it.id));
            if (it.suite === suite && v !== undefined) {
              full += v;
              n++;
            }
          }
          for (let id = session.next(); id !== null; id = session.next()) {
            const v = byId.get(irtItemKey(suite, id));
            if (v === undefined) throw new InputError(`${subject} has no answer to ${suite}/${id}, which the adaptive test asked`);
            session.record(id, v);
          }
          const r = session.result();
          const overall = r.accuracy.find((a) => a.category === null)!;
          return {
            subject,
            suite,
            theta: r.theta,
            se: r.se,
            itemsUsed: r.itemsUsed,
            stopReason: r.stopReason,
            estimate: overall.pIrt,
            fullAccuracy: n > 0 ? full / n : null,
            items: r.items,
          };
        });
        if (f.json) return print(results);
        const rows = results.map((r) => [
          r.subject,
          String(r.itemsUsed),
          r.theta === null ? '-' : r.theta.toFixed(2),
          r.theta === null ? pct(r.se) : r.se.toFixed(2),
          `${pct(r.estimate.estimate)} [${pct(r.estimate.lower)}, ${pct(r.estimate.upper)}]`,
          pct(r.fullAccuracy),
          r.stopReason ?? '',
        ]);
        process.stdout.write(`${formatTextTable(['subject', 'items', 'theta', 'SE', 'estimated % [95%]', 'full %', 'stop'], rows)}\n`);
      },
    );
}
