// The whole command line built at once, every command file loaded (tests walk it); `mindscope`
// itself builds it lazily (main.ts), loading only the file of the command being run.

import type { Command } from 'commander';
import { programShell } from './command-list.js';
import { registerAnalyze } from './commands/analyze.js';
import { registerAudit } from './commands/audit.js';
import { registerCompare } from './commands/compare.js';
import { registerData } from './commands/data.js';
import { registerDb } from './commands/db.js';
import { registerDemo } from './commands/demo.js';
import { registerDialtom } from './commands/dialtom.js';
import { registerEmbodied } from './commands/embodied.js';
import { registerJudge } from './commands/judge.js';
import { registerExport } from './commands/export.js';
import { registerHumans } from './commands/humans.js';
import { registerImport } from './commands/import.js';
import { registerIrt } from './commands/irt.js';
import { registerItems } from './commands/items.js';
import { registerReport } from './commands/report.js';
import { registerRun } from './commands/run.js';
import { registerSimulate } from './commands/simulate.js';
import { registerStatus } from './commands/status.js';
import { registerStoryTurn } from './commands/storyturn.js';
import { registerView } from './commands/view.js';
import { registerWorker } from './commands/worker.js';

/** The program with every command registered. */
export function buildProgram(): Command {
  const program = programShell();
  registerDemo(program);
  registerRun(program);
  registerItems(program);
  registerData(program);
  registerStatus(program);
  registerExport(program);
  registerReport(program);
  registerAudit(program);
  registerSimulate(program);
  registerCompare(program);
  registerEmbodied(program);
  registerJudge(program);
  registerAnalyze(program);
  registerStoryTurn(program);
  registerDialtom(program);
  registerWorker(program);
  registerDb(program);
  registerIrt(program);
  registerHumans(program);
  registerImport(program);
  registerView(program);
  return program;
}
