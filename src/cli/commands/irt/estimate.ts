// `mindscope irt estimate`: each model's accuracy per suite and category from its answers to some
// of a bank's items, after checking (with --items) that the bank still matches the suites.

import type { Command } from 'commander';
import { readJson } from '../../../core/index.js';
import {
  combineMatrices,
  estimateAccuracyFromAnswers,
  irtItemKey,
  parseTinySet,
  readIrtBank,
  type IrtBank,
  verifyBankItems,
} from '../../../analysis/index.js';
import { formatTextTable } from '../../../report/index.js';
import { intOption } from '../../options.js';
import { pct, print, readMatrixFile, suiteItems } from './shared.js';

async function verifyAgainstSuites(
  bank: IrtBank,
  suites: string[] | undefined,
  data: string | undefined,
  fields: string | undefined,
  file: string,
): Promise<void> {
  if (!suites) return;
  const current: Array<{ suite: string; id: string; hash: string }> = [];
  for (const suite of suites) {
    const { hashes } = await suiteItems(suite, data, fields);
    for (const [key, hash] of hashes) {
      const [s, id] = key.split('\u0000') as [string, string];
      current.push({ suite: s, id, hash });
    }
  }
  verifyBankItems(bank, current, { file });
}

export function registerEstimate(irt: Command): void {
  irt
    .command('estimate')
    .description("estimate each model's accuracy per suite and category from its answers to some bank items")
    .requiredOption('--bank <file>', 'item bank JSON')
    .requiredOption('--answers <file...>', 'response matrices with the answers (any subset of the bank items)')
    .option('--tiny <file>', 'the tiny set the answers come from (its anchor weights)')
    .option('--items <suite...>', "check the bank against these suites' current items (refused when an item changed)")
    .option('--data <path>', 'data folder for --items')
    .option('--fields <map>', 'field mapping for --items mcq')
    .option(
      '--draws <n>',
      "item parameter sets drawn from the bank's standard errors for the intervals (0: parameters as known)",
      intOption('--draws', 0),
      20,
    )
    .option('--json', 'print JSON')
    .action(
      async (f: {
        bank: string;
        answers: string[];
        tiny?: string;
        items?: string[];
        data?: string;
        fields?: string;
        draws: number;
        json?: boolean;
      }) => {
        const bank = readIrtBank(f.bank);
        await verifyAgainstSuites(bank, f.items, f.data, f.fields, f.bank);
        const tiny = f.tiny ? parseTinySet(readJson(f.tiny), bank, f.tiny) : undefined;
        const matrix = combineMatrices(await Promise.all(f.answers.map(readMatrixFile)));
        const results = matrix.subjects.map((subject, j) => {
          const answers = new Map<string, number>();
          matrix.items.forEach((it, i) => {
            const v = matrix.cells[i]![j];
            if (v !== null && v !== undefined) answers.set(irtItemKey(it.suite, it.itemId), v);
          });
          return { subject, ...estimateAccuracyFromAnswers(bank, answers, { tiny, parameterDraws: f.draws }) };
        });
        if (f.json) return print(results);
        for (const r of results) {
          process.stdout.write(
            `\n${r.subject}: theta ${r.theta.toFixed(2)} (SD ${r.thetaSd.toFixed(2)}), ${r.answered} answers${r.unknownItems ? `, ${r.unknownItems} not in the bank` : ''}\n`,
          );
          const rows = r.rows.map((row) => [
            row.category === null ? row.suite : `  ${row.category}`,
            `${row.answered}/${row.items}`,
            pct(row.anchor.estimate),
            pct(row.irt.estimate),
            `${pct(row.pIrt.estimate)} [${pct(row.pIrt.lower)}, ${pct(row.pIrt.upper)}]`,
            row.gpIrt ? `${pct(row.gpIrt.estimate)} [${pct(row.gpIrt.lower)}, ${pct(row.gpIrt.upper)}]` : '-',
          ]);
          process.stdout.write(`${formatTextTable(['group', 'answered', 'anchor %', 'IRT %', 'p-IRT % [95%]', 'gp-IRT % [95%]'], rows)}\n`);
        }
      },
    );
}
