// Installs the optional peer node-llama-cpp for the GGUF tests and the `llamacpp:` provider in
// this checkout: its CPU build only (its CUDA and Vulkan builds are several hundred megabytes),
// into .cache/llama, linked as node_modules/node-llama-cpp. `npm run setup:llama`.

import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const VERSION = '3.21.1';
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const prefix = join(root, '.cache', 'llama');

/** The platform package that carries the prebuilt CPU (or Metal) binary for this machine. */
function binaryPackage() {
  const { platform, arch } = process;
  if (platform === 'darwin') return arch === 'arm64' ? 'mac-arm64-metal' : 'mac-x64';
  if (platform === 'win32') return arch === 'arm64' ? 'win-arm64' : 'win-x64';
  if (platform === 'linux') return { x64: 'linux-x64', arm64: 'linux-arm64', arm: 'linux-armv7l', riscv64: 'linux-riscv64' }[arch];
  return undefined;
}

const binary = binaryPackage();
if (!binary) throw new Error(`setup:llama: no prebuilt node-llama-cpp binary for ${process.platform}-${process.arch}`);
mkdirSync(prefix, { recursive: true });
writeFileSync(join(prefix, 'package.json'), '{ "private": true }\n');
// --omit=optional leaves out every GPU build; the CPU one is named explicitly.
execFileSync(
  'npm',
  ['install', '--no-audit', '--no-fund', '--omit=optional', `node-llama-cpp@${VERSION}`, `@node-llama-cpp/${binary}@${VERSION}`],
  { cwd: prefix, stdio: 'inherit', shell: process.platform === 'win32' },
);
const link = join(root, 'node_modules', 'node-llama-cpp');
rmSync(link, { recursive: true, force: true });
symlinkSync(join(prefix, 'node_modules', 'node-llama-cpp'), link, 'junction');
await import('node-llama-cpp');
console.log(`node-llama-cpp ${VERSION} (${binary}) installed in .cache/llama and linked into node_modules`);
