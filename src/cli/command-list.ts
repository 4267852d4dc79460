// The command line: the kernel's commands and those of every plugin in play (the built-in
// studies' manifests, a config file's plugins), each declared with its help term and a loader,
// so that the CLI starts without loading every layer: only the file of the command being run is
// imported (tests/cli-lazy.test.ts checks the declarations against what the files register).

import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { CommandContext, CommandDefinition, PluginManifest } from '../app/index.js';
import { BUILTIN_STUDIES } from '../builtin-studies.js';
import { ConfigError } from '../core/errors.js';
import { KERNEL_COMMANDS, KERNEL_TOOL_COMMANDS } from './kernel-commands.js';

/** The version in package.json, read here rather than through the core entry so that `--help` loads no schema library. */
function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

/** The program without its commands: name, description, version, errors thrown rather than exiting. */
function programShell(): Command {
  const program = new Command();
  program.name('mindscope').description('Run, generate and audit Theory-of-Mind evaluations of language models').version(packageVersion());
  program.exitOverride();
  return program;
}

/** The manifests of the built-in studies. */
export function builtinManifests(): PluginManifest[] {
  return BUILTIN_STUDIES.map((s) => s.manifest);
}

/** A command definition and the plugin that declares it ('mindscope' for the kernel's), for errors. */
export interface DeclaredCommands {
  plugin: string;
  definition: CommandDefinition;
}

/** Every command definition in play, in the order `mindscope --help` lists them. */
export function commandDefinitions(manifests: readonly PluginManifest[]): DeclaredCommands[] {
  const of = (plugin: string, defs: readonly CommandDefinition[]) => defs.map((definition) => ({ plugin, definition }));
  return [
    ...of('mindscope', KERNEL_COMMANDS),
    ...manifests.flatMap((m) => of(m.name, m.commands ?? [])),
    ...of('mindscope', KERNEL_TOOL_COMMANDS),
  ];
}

const nameOf = (term: string) => term.split(' ')[0]!;
const namesOf = (d: CommandDefinition) => d.commands.map((c) => nameOf(c.term));

/**
 * A stand-in for a command that is not being run: what its parent's help lists for it (name,
 * "[options]" through a hidden option, arguments, description) and nothing else.
 */
function addStub(parent: Command, term: string, description: string): void {
  const [name, ...rest] = term.split(' ');
  const cmd = parent.command(name!).description(description);
  for (const word of rest) {
    if (word === '[options]') cmd.addOption(new Option('--stub').hideHelp());
    else cmd.argument(word);
  }
}

/** A plugin's top-level command that another command already has is refused, naming both. */
function checkUnique(top: readonly DeclaredCommands[]): void {
  const owner = new Map<string, string>();
  for (const { plugin, definition } of top)
    for (const name of namesOf(definition)) {
      const before = owner.get(name);
      if (before !== undefined) throw new ConfigError(`plugin ${plugin}: the command "${name}" is already ${before}'s`);
      owner.set(name, plugin);
    }
}

/**
 * The program with the commands of `manifests` and the kernel: those `wanted` names (a command,
 * then a subcommand of it) registered in full, every other one as a stand-in; 'all': every one
 * in full. A group's subcommands are added only when the group is registered in full.
 */
async function assemble(manifests: readonly PluginManifest[], wanted: readonly (string | undefined)[] | 'all'): Promise<Command> {
  const program = programShell();
  const ctx: CommandContext = { manifests };
  const declared = commandDefinitions(manifests);
  const top = declared.filter((d) => d.definition.group === undefined);
  checkUnique(top);
  const stubs = new WeakSet<Command>();
  const register = async (parent: Command, definition: CommandDefinition, depth: number) => {
    const name = wanted === 'all' ? undefined : wanted[depth];
    if (wanted === 'all' || (name !== undefined && namesOf(definition).includes(name))) (await definition.load())(parent, ctx);
    else
      for (const c of definition.commands) {
        addStub(parent, c.term, c.description);
        stubs.add(parent.commands.at(-1)!);
      }
  };
  for (const { definition } of top) await register(program, definition, 0);
  for (const { plugin, definition } of declared) {
    if (definition.group === undefined) continue;
    const parent = program.commands.find((c) => c.name() === definition.group);
    if (!parent) throw new ConfigError(`plugin ${plugin}: no command "${definition.group}" to add ${namesOf(definition).join(', ')} to`);
    if (!stubs.has(parent)) await register(parent, definition, 1);
  }
  return program;
}

/**
 * The program for `args` (the words after `mindscope`): the command they name (`report ...`,
 * `help report`, `analyze dialtom ...`) registered in full, every other one as a stand-in for
 * the help listing. `manifests`: the plugins in play (default: the built-in studies).
 */
export function buildProgramFor(args: readonly string[], manifests: readonly PluginManifest[] = builtinManifests()): Promise<Command> {
  const words = args[0] === 'help' ? [args[1]] : [args[0], args[1] === 'help' ? args[2] : args[1]];
  return assemble(manifests, words);
}

/** The program with every command loaded and registered (tests walk it). */
export function buildProgram(manifests: readonly PluginManifest[] = builtinManifests()): Promise<Command> {
  return assemble(manifests, 'all');
}
