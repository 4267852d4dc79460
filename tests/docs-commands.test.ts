// Every page of docs/ runs as it is written: in a fresh folder of its own, each file the page asks
// the reader to write is written and each `mindscope` command is run, in page order, through the
// built CLI (a `mindscope` on the PATH that runs bin/mindscope.js; `npx mindscope` is the same
// command), by sh, so quotes, `$VARS`, `&&` and pipes mean what they mean in a terminal. Each must
// exit 0. The hosted providers are a local model server (tests/servers/model-server.mjs) with test
// keys, and an `openai-compatible:http://127.0.0.1:PORT/...` address a page names is served by one
// on that port; a PostgreSQL store a page names (`postgres://...`, also through `export
// MINDSCOPE_DB=...`) is a fresh database on the test server. `export NAME=VALUE` and `cd DIR` carry
// over to the page's later commands; other commands (npm, pip, inspect) are not run. `mindscope
// view` without `--export` serves until stopped: it passes once its page answers at the URL it
// prints. A block after `<!-- docs-test: skip (reason) -->` is neither written nor run.
// Not run here: docs/guide/plugins.md (the package check runs it against an installed package)
// and the generated reference (docs/reference/cli.md).

import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';
import { type ModelServer, providerEnv, startModelServer } from './helpers/servers.js';

const ROOT = join(__dirname, '..');
const DOCS = join(ROOT, 'docs');
const BIN = join(ROOT, 'bin', 'mindscope.js');
const NOT_RUN = new Set(['guide/plugins.md', 'reference/cli.md']);
const COMMAND_TIMEOUT_MS = 180_000;

type Block = { kind: 'file'; path: string; text: string; line: number } | { kind: 'commands'; commands: string[]; line: number };
const { pageBlocks } = (await import(pathToFileURL(join(ROOT, 'scripts', 'docs-blocks.mjs')).href)) as {
  pageBlocks: (markdown: string) => Block[];
};

/** The Markdown pages under docs/, relative to it (the site's own folders left out). */
function pages(dir = DOCS): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : pages(path);
    return e.name.endsWith('.md') ? [relative(DOCS, path)] : [];
  });
}

const PAGES = pages()
  .filter((p) => !NOT_RUN.has(p))
  .sort();
const source = (page: string) => readFileSync(join(DOCS, page), 'utf8');
const commandsOf = (page: string) => pageBlocks(source(page)).flatMap((b) => (b.kind === 'commands' ? b.commands : []));
const isMindscope = (command: string) => /^(npx )?mindscope\s/.test(command);
const OWN_SERVER = /openai-compatible:http:\/\/127\.0\.0\.1:(\d+)\//g;
const POSTGRES = /postgres(?:ql)?:\/\/[^\s'"]+/;

let server: ModelServer;
const ownServers: ModelServer[] = [];
/** A guide's server port -> the port the test serves it on. */
const portFor = new Map<string, string>();
/** A guide's text with its servers' ports replaced by the test's. */
const withOwnPorts = (text: string) =>
  text.replaceAll(OWN_SERVER, (m, port: string) => m.replace(`:${port}/`, `:${portFor.get(port) ?? port}/`));
let shim = '';
const folders: string[] = [];

beforeAll(async () => {
  server = await startModelServer();
  const ports = new Set(PAGES.flatMap((p) => [...source(p).matchAll(OWN_SERVER)].map((m) => m[1]!)));
  // Each port a guide names is served by a model server on a free port, put in its place in the
  // page's commands and files (a fixed port may be taken on the machine running the tests).
  for (const port of ports) {
    const s = await startModelServer();
    ownServers.push(s);
    portFor.set(port, String(s.port));
  }
  shim = mkdtempSync(join(tmpdir(), 'mindscope-docs-bin-'));
  writeFileSync(join(shim, 'mindscope'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(shim, 'mindscope'), 0o755);
});

afterAll(async () => {
  await Promise.all([server, ...ownServers].filter(Boolean).map((s) => s.stop()));
  await dropTestDatabases();
  for (const dir of [shim, ...folders]) if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command line with sh; a `mindscope view` server is stopped once its page answers. */
function runShell(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Outcome> {
  const serves = /^mindscope view\b/.test(command) && !/\s--export\b/.test(command);
  const child = spawn('sh', ['-c', serves ? `exec ${command}` : command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  return new Promise<Outcome>((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
    let served = false;
    child.stdout.on('data', async (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /https?:\/\/\S+/.exec(stdout)?.[0];
      if (!serves || served || !url) return;
      served = true;
      const page = await fetch(url.replace('0.0.0.0', '127.0.0.1')).catch((err: Error) => ({ ok: false, status: err.message }));
      if (!page.ok) stderr += `\nthe viewer's page did not answer: ${page.status}`;
      else stdout += '\n(the page answered; server stopped by the test)';
      child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      const ok = serves && served && !/did not answer/.test(stderr);
      done({ code: ok ? 0 : code, stdout, stderr });
    });
  });
}

/** `export A=1 B="two"`: the assignments, a trailing comment left out. */
function exports(command: string): Array<[string, string]> {
  const body = command.replace(/^export\s+/, '').replace(/\s+#.*$/, '');
  return [...body.matchAll(/(\w+)=("[^"]*"|'[^']*'|\S+)/g)].map((m) => [m[1]!, m[2]!.replace(/^(["'])(.*)\1$/, '$2')]);
}

const tail = (text: string, n = 4000) => (text.length > n ? `...${text.slice(-n)}` : text);

describe('the documentation pages run as written', () => {
  for (const page of PAGES) {
    const needsPostgres = commandsOf(page).some((c) => POSTGRES.test(c));
    const test = needsPostgres && !pgAvailable ? it.skip : it;
    test(`docs/${page}${needsPostgres ? pgSkipNote : ''}`, { timeout: 900_000 }, async () => {
      let cwd = mkdtempSync(join(tmpdir(), 'mindscope-docs-'));
      folders.push(cwd);
      const env: NodeJS.ProcessEnv = {
        ...providerEnv(server.url),
        PATH: `${shim}:${process.env.PATH}`,
        MINDSCOPE_CACHE: join(cwd, '.cache'),
        MINDSCOPE_DB: undefined,
        MINDSCOPE_VIEW_TOKEN: undefined,
      };
      let postgres: string | undefined;
      const pgUrl = async () => (postgres ??= await createTestDatabase());
      for (const block of pageBlocks(source(page))) {
        if (block.kind === 'file') {
          if (isAbsolute(block.path) || block.path.split(/[\\/]/).includes('..'))
            throw new Error(`docs/${page}:${block.line}: the file block's path "${block.path}" leaves the reader's folder`);
          const path = join(cwd, block.path);
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, withOwnPorts(block.text));
          continue;
        }
        for (const written of block.commands) {
          let command = withOwnPorts(written).replace(/^npx mindscope\s/, 'mindscope ');
          if (/^cd\s/.test(command)) {
            cwd = resolve(cwd, command.slice(3).trim());
            continue;
          }
          if (/^export\s/.test(command)) {
            for (const [name, value] of exports(command)) {
              if (/_BASE_URL$/.test(name)) continue; // the providers stay pointed at the local server
              env[name] = POSTGRES.test(value) ? await pgUrl() : value;
            }
            continue;
          }
          if (!isMindscope(command)) continue;
          if (POSTGRES.test(command)) {
            const url = await pgUrl();
            command = command.replaceAll(new RegExp(POSTGRES, 'g'), url);
          }
          const r = await runShell(command, cwd, env);
          expect(
            r.code,
            `docs/${page}:${block.line}: ${written}\nexit code ${r.code}\n--- stderr ---\n${tail(r.stderr)}\n--- stdout ---\n${tail(r.stdout, 1500)}`,
          ).toBe(0);
        }
      }
    });
  }
});
