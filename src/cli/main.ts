// The mindscope command line: the kernel's commands (one file each under commands/) and the
// commands of every plugin in play: the built-in studies, and the plugins of a config file given
// with --config. Only the file of the command being run is loaded (command-list.ts), so `--help`
// and `--version` start fast and a command loads only the layers it uses.

import { CommanderError } from 'commander';
import type { PluginManifest } from '../app/index.js';
import { buildProgramFor, builtinManifests } from './command-list.js';

/** The value of the last `--config FILE` or `--config=FILE` among `args`, if any. */
function configFlag(args: readonly string[]): string | undefined {
  let path: string | undefined;
  for (const [i, arg] of args.entries()) {
    if (arg === '--') break;
    if (arg === '--config' && args[i + 1] !== undefined && !args[i + 1]!.startsWith('-')) path = args[i + 1];
    else if (arg.startsWith('--config=')) path = arg.slice('--config='.length);
  }
  return path || undefined;
}

/**
 * The plugins in play: the built-in studies' manifests, and the plugins of the config file the
 * command line names (loaded only then, so that a plain `mindscope --help` stays fast).
 */
async function pluginManifests(args: readonly string[]): Promise<PluginManifest[]> {
  const config = configFlag(args);
  if (config === undefined) return builtinManifests();
  const { loadConfigOnce } = await import('./command-context.js');
  return [...builtinManifests(), ...(await loadConfigOnce(config)).plugins];
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
    const args = argv.slice(2);
    await (await buildProgramFor(args, await pluginManifests(args))).parseAsync(argv);
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
