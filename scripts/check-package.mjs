// The package as a user gets it: `node scripts/check-package.mjs mindscope-X.tgz` makes a project
// outside the repository and there follows docs/guide/plugins.md exactly as written (its files
// written, its commands run, `npm i mindscope` taking the tarball), runs `npx mindscope demo`,
// type-checks an import of every public entry point against the installed types, and measures
// the installed size. Run by .ci/run on each supported Node major.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageBlocks } from './docs-blocks.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const GUIDE = 'docs/guide/plugins.md';
/** The installed package with its dependencies must stay under this many bytes. */
const INSTALLED_LIMIT = 300 * 1024 * 1024;

const tarball = process.argv[2] && resolve(process.argv[2]);
if (!tarball || !existsSync(tarball)) {
  console.error('usage: node scripts/check-package.mjs mindscope-X.tgz');
  process.exit(2);
}

const project = mkdtempSync(join(tmpdir(), 'mindscope-package-'));
console.log(`package check on Node ${process.version} in ${project}`);

/** Run one shell command in the project; exit with its output when it fails. */
function sh(command, where) {
  const r = spawnSync(command, { cwd: project, shell: true, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  if (r.status !== 0) {
    console.error(`${where}: \`${command}\` exited with ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
    process.exit(1);
  }
  return r.stdout;
}

/** `npm i mindscope` in a guide installs the tarball under test. */
const withTarball = (command) => command.replace(/^(npm (?:i|install)\b.*?)\bmindscope\b(?![-/@\w])/, `$1${JSON.stringify(tarball)}`);

const outputs = new Map();
let demoDone = false;
for (const block of pageBlocks(readFileSync(join(root, GUIDE), 'utf8'))) {
  const where = `${GUIDE}:${block.line}`;
  if (block.kind === 'file') {
    mkdirSync(dirname(join(project, block.path)), { recursive: true });
    writeFileSync(join(project, block.path), block.text);
    continue;
  }
  for (const command of block.commands) {
    outputs.set(command, sh(withTarball(command), where));
    console.log(`ok  ${command}`);
  }
  if (!demoDone && existsSync(join(project, 'node_modules', 'mindscope'))) {
    // The README's first quick-start command, in the installed package.
    const demo = sh('npx mindscope demo', 'the demo');
    if (!/accuracy|Accuracy/.test(demo)) throw new Error(`the demo printed no accuracy:\n${demo}`);
    console.log('ok  npx mindscope demo');
    demoDone = true;
  }
}
if (!demoDone) throw new Error(`${GUIDE} never installs mindscope`);

/** What the guide's commands must have printed. */
const expectations = [
  ['npx mindscope suites --config toy.config.yaml', /letter-count\s+letter-count/],
  ['npx mindscope greet --config greet.config.yaml --times 2', /^hello\nhello\n$/],
  ['npx mindscope --help --config greet.config.yaml', /greet \[options\]\s+say hello/],
];
for (const [command, pattern] of expectations) {
  const out = outputs.get(command);
  if (out === undefined) throw new Error(`${GUIDE} no longer runs \`${command}\`; update the package check`);
  if (!pattern.test(out)) throw new Error(`\`${command}\` printed:\n${out}\nexpected ${pattern}`);
}
const greetings = JSON.parse(outputs.get('npx mindscope greet --config greet.config.yaml --times 3 --json') ?? '{}').greetings;
if (greetings?.length !== 3) throw new Error('`greet --times 3 --json` did not print three greetings');

// Every public entry point resolves with its types, as a TypeScript user's import does.
const manifest = JSON.parse(readFileSync(join(project, 'node_modules', 'mindscope', 'package.json'), 'utf8'));
const studies = readdirSync(join(project, 'node_modules', 'mindscope', 'dist', 'studies'));
const entries = Object.keys(manifest.exports)
  .filter((k) => k !== './package.json')
  .flatMap((k) => (k === './studies/*' ? studies.map((s) => `./studies/${s}`) : [k]))
  .map((k) => `mindscope${k.slice(1)}`);
writeFileSync(join(project, 'entries.ts'), entries.map((e, i) => `import * as e${i} from '${e}';\nvoid e${i};\n`).join(''));
writeFileSync(
  join(project, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
    files: ['entries.ts'],
  }),
);
execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(project, 'tsconfig.json')], {
  stdio: 'inherit',
});
console.log(`ok  ${entries.length} entry points type-check from the installed package`);

/** Bytes of files under a folder (links not followed). */
function bytesUnder(dir) {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    total += stat.isDirectory() ? bytesUnder(path) : stat.size;
  }
  return total;
}
const installed = bytesUnder(join(project, 'node_modules'));
const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
console.log(`installed: mindscope with its dependencies ${mb(installed)} (limit ${mb(INSTALLED_LIMIT)})`);
if (installed > INSTALLED_LIMIT) process.exit(1);
console.log(`package check passed on Node ${process.version}`);
