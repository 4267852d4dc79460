import type { Command } from 'commander';
import { readText } from '../../../core/index.js';
import { formatPValue, formatTextTable } from '../../../report/index.js';
import { printResult } from '../../../cli/toolkit.js';
import { EASY_HARD_R_CONVENTION, easyHardFromRates, PAPER_EASY_HARD_SOURCE, paperEasyHardRates, parseRateTable } from '../index.js';

/** `dialtom easy-hard`: the easy-hard Mann-Whitney test from published rates (the paper's Table 22, or a rates file). */
export function registerEasyHard(dialtom: Command): void {
  dialtom
    .command('easy-hard')
    .description(
      "the easy-hard gap from published rates (Table 22): Mann-Whitney U of the prospective-easy set's per-item correctness against the prospective set's, from the paper's Tables 3 and 6 or a rates file",
    )
    .option(
      '--rates <file>',
      "rates CSV (model,domain,task,correct_rate,items) with prospective and prospective-easy rows (default: the paper's)",
    )
    .option(
      '--json',
      'print JSON: { source, convention, rows: [{ model, domain, itemsHard, itemsEasy, rightHard, rightEasy, hard, easy, u, p, rankBiserial, paper, reproduced }] }',
    )
    .action((f: { rates?: string; json?: boolean }) => {
      const rows = easyHardFromRates(f.rates ? parseRateTable(readText(f.rates), f.rates) : paperEasyHardRates(), !f.rates);
      const source = f.rates ?? PAPER_EASY_HARD_SOURCE;
      const withPaper = rows.some((r) => r.paper);
      const reproduced = rows.filter((r) => r.reproduced).length;
      const compared = rows.filter((r) => r.reproduced !== null).length;
      printResult(
        f.json,
        { source, convention: EASY_HARD_R_CONVENTION, rows },
        `easy-hard gap from published rates (${source}); right answers = round(rate x items)\n${formatTextTable(
          ['model', 'domain', 'hard % (n)', 'easy % (n)', 'U', 'p', 'r', ...(withPaper ? ['paper U', 'paper r', 'reproduced'] : [])],
          rows.map((r) => [
            r.model,
            r.domain,
            `${r.hard.toFixed(2)} (${r.itemsHard})`,
            `${r.easy.toFixed(2)} (${r.itemsEasy})`,
            r.u.toFixed(1),
            formatPValue(r.p),
            r.rankBiserial.toFixed(3),
            ...(withPaper
              ? [
                  r.paper ? r.paper.u.toFixed(1) : '-',
                  r.paper ? r.paper.r.toFixed(3) : '-',
                  r.reproduced === null ? '-' : r.reproduced ? 'yes' : 'no',
                ]
              : []),
          ]),
        )}\n${EASY_HARD_R_CONVENTION}\n${withPaper ? `${reproduced} of ${compared} of Table 22's cells reproduced (U equal, r within 0.001)\n` : ''}`,
      );
    });
}
