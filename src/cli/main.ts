// The mindscope command line. Each command lives in its own file under commands/; only the file
// of the command being run is loaded (command-list.ts), so `--help` and `--version` start fast
// and a command loads only the layers it uses.

import { CommanderError } from 'commander';
import { buildProgramFor } from './command-list.js';

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
    await (await buildProgramFor(argv.slice(2))).parseAsync(argv);
  } catch (thrown) {
    if (thrown instanceof CommanderError) {
      process.exitCode = thrown.exitCode;
      return;
    }
    // A raw errno error (ENOENT, EACCES, ...) from a path the user gave becomes one clear line.
    const { describeFileError, MindscopeError } = await import('../core/index.js');
    const err = describeFileError(thrown);
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`mindscope: ${message}\n`);
    if (process.env.MINDSCOPE_DEBUG && err instanceof Error && !(err instanceof MindscopeError)) process.stderr.write(`${err.stack}\n`);
    process.exitCode = 1;
  }
}
