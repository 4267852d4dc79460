// The lazy command line (issue 18): `mindscope` loads only the file of the command being run, so
// the list of commands it shows without loading them must match what the files register.

import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgramFor, COMMAND_FILES } from '../src/cli/command-list.js';
import { buildProgram } from '../src/cli/program.js';

describe('lazy command line', () => {
  it('the top-level help without loading any command is the full program help', async () => {
    expect((await buildProgramFor([])).helpInformation()).toBe(buildProgram().helpInformation());
    expect((await buildProgramFor(['--help'])).helpInformation()).toBe(buildProgram().helpInformation());
  });

  it('each command file registers the commands listed for it, with the same help term and description', async () => {
    const help = new Command().createHelp();
    for (const file of COMMAND_FILES) {
      const program = new Command();
      (await file.load())(program);
      expect(program.commands.map((c) => ({ term: help.subcommandTerm(c), description: c.description() }))).toEqual(file.commands);
    }
  });

  it('the command being run is registered in full, every other one as a stand-in', async () => {
    const full = buildProgram();
    for (const args of [
      ['report', '--out', 'x'],
      ['help', 'suites'],
    ]) {
      const program = await buildProgramFor(args);
      const name = args[0] === 'help' ? args[1] : args[0];
      const real = program.commands.find((c) => c.name() === name)!;
      expect(real.helpInformation()).toBe(full.commands.find((c) => c.name() === name)!.helpInformation());
      expect(program.helpInformation()).toBe(full.helpInformation());
    }
  });
});
