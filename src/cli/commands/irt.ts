// `mindscope irt ...`: calibrate item banks from response matrices, choose tiny benchmarks,
// estimate accuracies from few answers, replay adaptive tests, simulate IRT panels, chart a bank.
// Each subcommand is in a file of its own under irt/; this file gathers them under one command.

import type { Command } from 'commander';
import { registerAdaptive } from './irt/adaptive.js';
import { registerCalibrate } from './irt/calibrate.js';
import { registerEstimate } from './irt/estimate.js';
import { registerReport } from './irt/report.js';
import { registerSimulate } from './irt/simulate.js';
import { registerTiny } from './irt/tiny.js';

export function registerIrt(program: Command): void {
  const irt = program.command('irt').description('item response theory: item banks, tiny benchmarks, adaptive tests');
  registerCalibrate(irt);
  registerTiny(irt);
  registerEstimate(irt);
  registerAdaptive(irt);
  registerSimulate(irt);
  registerReport(irt);
}
