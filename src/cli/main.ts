// The mindscope command line. Each command lives in its own file under commands/.

import { Command, CommanderError } from 'commander';
import { MindscopeError } from '../index.js';
import { describeFileError } from '../core/index.js';
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

export function buildProgram(): Command {
  const program = new Command();
  program.name('mindscope').description('Run, generate and audit Theory-of-Mind evaluations of language models').version('0.1.0');
  program.exitOverride();
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

/**
 * `mindscope run ... | head`: once the reader is gone, what is left to print has nowhere to go.
 * Exit quietly, as command-line tools do, instead of crashing with an EPIPE stack trace
 * (whatever the run stored is committed already; a rerun continues it).
 */
function exitQuietlyOnClosedStdout(): void {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}

export async function main(argv = process.argv): Promise<void> {
  exitQuietlyOnClosedStdout();
  try {
    await buildProgram().parseAsync(argv);
  } catch (thrown) {
    if (thrown instanceof CommanderError) {
      process.exitCode = thrown.exitCode;
      return;
    }
    // A raw errno error (ENOENT, EACCES, ...) from a path the user gave becomes one clear line.
    const err = describeFileError(thrown);
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`mindscope: ${message}\n`);
    if (process.env.MINDSCOPE_DEBUG && err instanceof Error && !(err instanceof MindscopeError)) process.stderr.write(`${err.stack}\n`);
    process.exitCode = 1;
  }
}
