// `mindscope irt report`: a bank's item characteristic and information curves, its Wright map and
// (from --estimates) the estimated-vs-full plot, as SVG files.

import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectory, readJson } from '../../../core/index.js';
import { irtChartData, readIrtBank } from '../../../analysis/index.js';
import { estimatedAccuracySpec, informationSpec, itemCharacteristicSpec, renderSvg, wrightMapSpec } from '../../../report/index.js';
import { printResult } from '../../output.js';

export function registerReport(irt: Command): void {
  irt
    .command('report')
    .description('item characteristic and information curves and the Wright map of a bank, as SVG')
    .requiredOption('--bank <file>', 'item bank JSON')
    .requiredOption('--out <dir>', 'output folder')
    .option('--item <ids...>', 'items to draw curves for (default: 8 spread over difficulty)')
    .option('--estimates <file>', 'JSON list of { model, full, estimate, lower, upper, method } for the estimated-vs-full plot')
    .option('--json', 'print JSON: { out, files }')
    .action(async (f: { bank: string; out: string; item?: string[]; estimates?: string; json?: boolean }) => {
      const bank = readIrtBank(f.bank);
      const data = irtChartData(bank, { items: f.item });
      makeDirectory(f.out);
      const files: string[] = [];
      const write = async (name: string, svg: Promise<string>) => {
        writeFileSync(join(f.out, name), await svg);
        files.push(name);
      };
      await write('item-curves.svg', renderSvg(itemCharacteristicSpec(data)));
      await write('information.svg', renderSvg(informationSpec(data)));
      if (data.wright.models.length > 0) await write('wright-map.svg', renderSvg(wrightMapSpec(data)));
      if (f.estimates)
        await write(
          'estimated-vs-full.svg',
          renderSvg(estimatedAccuracySpec(readJson(f.estimates) as Parameters<typeof estimatedAccuracySpec>[0])),
        );
      printResult(f.json, { out: f.out, files }, `wrote ${files.join(', ')} to ${f.out}`);
    });
}
