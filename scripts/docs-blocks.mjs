// The runnable parts of a documentation page, in page order: files the reader is asked to write
// (a fenced block whose info string names a path: ```ts [my-suite.ts]) and shell commands
// (```sh or ```bash blocks; a trailing backslash continues a line, # starts a comment). A block
// preceded by `<!-- docs-test: skip (reason) -->` is neither written nor run. The docs tests and
// the package check both read pages through this, so a guide runs exactly as it is written.

/**
 * @typedef {{ kind: 'file', path: string, text: string, line: number }} FileBlock
 * @typedef {{ kind: 'commands', commands: string[], line: number }} CommandBlock
 */

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)\s*(?:\[([^\]]+)\])?.*$/;
const SKIP = /<!--\s*docs-test:\s*skip\b/;

/** The files and commands of a Markdown page, in order. */
export function pageBlocks(markdown) {
  const lines = markdown.split('\n');
  /** @type {(FileBlock|CommandBlock)[]} */
  const blocks = [];
  let skipNext = false;
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) {
      if (SKIP.test(lines[i])) skipNext = true;
      else if (lines[i].trim() !== '') skipNext = false;
      continue;
    }
    const [, indent, fence, lang, path] = open;
    const body = [];
    let j = i + 1;
    for (; j < lines.length && !lines[j].trimStart().startsWith(fence); j++) body.push(lines[j].slice(indent.length));
    const line = i + 1;
    if (!skipNext) {
      if (path) blocks.push({ kind: 'file', path: path.trim(), text: `${body.join('\n')}\n`, line });
      else if (lang === 'sh' || lang === 'bash' || lang === 'shell') blocks.push({ kind: 'commands', commands: joinCommands(body), line });
    }
    skipNext = false;
    i = j;
  }
  return blocks;
}

/** Shell lines with continuations joined and comments and blank lines dropped. */
function joinCommands(body) {
  const commands = [];
  let current = '';
  for (const raw of body) {
    const text = raw.trim();
    if (!current && (text === '' || text.startsWith('#'))) continue;
    if (text.endsWith('\\')) {
      current += `${text.slice(0, -1).trim()} `;
      continue;
    }
    commands.push((current + text).trim());
    current = '';
  }
  if (current.trim()) commands.push(current.trim());
  return commands;
}
