// How a run was produced: the mindscope version, the git commit of a checkout (read from .git,
// no process spawned), Node and the platform, per suite the manifest entry of its public data
// and a hash of the items it actually loaded, and the hash of each prompt template used. Stored
// beside the run (store.recordProvenance), never in its identity: the run id stays the same.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { contentHash, MCQ_RECORDS, packageFile, readJson, sha256, type RunSpec, type Task } from '../core/index.js';
import { itemHash } from '../runner/index.js';
import { DEFAULT_MCQ_TEMPLATE, templateFile } from '../protocols/index.js';
import { datasetForSuite, readManifest, type DataManifest } from '../suites/index.js';

export interface SuiteProvenance {
  suite: string;
  items: number;
  /** SHA-256 over the items' content hashes, in order: the data the run actually read. */
  itemsSha256: string;
  /** The public dataset of the suite in data/manifest.json: its revision and a hash of its file list with their SHA-256. */
  dataset: { id: string; revision: string | null; manifestSha256: string } | null;
}

export interface TemplateProvenance {
  suite: string;
  /** The template file or built-in name, or "default" (the built-in MCQ prompt). */
  template: string;
  sha256: string;
}

export interface RunProvenance {
  recordedAt: string;
  mindscope: string;
  /** The commit of the git checkout mindscope runs from, or null (an npm install, no .git). */
  gitCommit: string | null;
  node: string;
  platform: string;
  suites: SuiteProvenance[];
  /** Prompt templates of the MCQ suites; other protocols' prompts are fixed by the mindscope version. */
  templates: TemplateProvenance[];
}

const readText = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
};

/** A ref's commit from a git folder: the loose ref file, else packed-refs. */
function refCommit(gitDir: string, ref: string): string | undefined {
  const loose = readText(join(gitDir, ref));
  if (loose && /^[0-9a-f]{40}$/.test(loose)) return loose;
  const packed = readText(join(gitDir, 'packed-refs'));
  return packed
    ?.split('\n')
    .map((l) => l.split(' '))
    .find(([hash, name]) => name === ref && /^[0-9a-f]{40}$/.test(hash ?? ''))?.[0];
}

/** The commit checked out in the git repository at `root` (a worktree's `.git` file is followed), or null. */
export function gitCommitOf(root: string): string | null {
  const dotGit = join(root, '.git');
  if (!existsSync(dotGit)) return null;
  let gitDir = dotGit;
  if (statSync(dotGit).isFile()) {
    const pointer = /^gitdir:\s*(.+)$/m.exec(readText(dotGit) ?? '')?.[1];
    if (!pointer) return null;
    gitDir = isAbsolute(pointer) ? pointer : join(root, pointer);
  }
  const head = readText(join(gitDir, 'HEAD'));
  if (!head) return null;
  if (/^[0-9a-f]{40}$/.test(head)) return head;
  const ref = /^ref:\s*(.+)$/.exec(head)?.[1];
  if (!ref) return null;
  const common = readText(join(gitDir, 'commondir'));
  const commonDir = common ? (isAbsolute(common) ? common : join(gitDir, common)) : gitDir;
  return refCommit(gitDir, ref) ?? refCommit(commonDir, ref) ?? null;
}

function datasetOf(manifest: DataManifest | undefined, suite: string): SuiteProvenance['dataset'] {
  const d = manifest ? datasetForSuite(manifest, suite) : undefined;
  if (!d) return null;
  const source = d.source as { revision?: unknown };
  return {
    id: d.id,
    revision: typeof source.revision === 'string' ? source.revision : null,
    manifestSha256: contentHash(d.files.map((f) => [f.path, f.sha256])),
  };
}

/** The provenance of a run about to execute these tasks under this specification. */
export function collectProvenance(spec: RunSpec, tasks: Task[]): RunProvenance {
  const pkg = readJson(packageFile('package.json')) as { version?: string };
  let manifest: DataManifest | undefined;
  try {
    manifest = readManifest();
  } catch {
    manifest = undefined;
  }
  const templates: TemplateProvenance[] = [];
  for (const entry of spec.suites) {
    const e = typeof entry === 'string' ? { id: entry } : entry;
    if (tasks.find((t) => t.suite === e.id)?.records !== MCQ_RECORDS) continue;
    const name = e.template ?? spec.template;
    templates.push(
      name
        ? { suite: e.id, template: name, sha256: sha256(readFileSync(templateFile(name), 'utf8')) }
        : { suite: e.id, template: 'default', sha256: contentHash(DEFAULT_MCQ_TEMPLATE) },
    );
  }
  return {
    recordedAt: new Date().toISOString(),
    mindscope: pkg.version ?? 'unknown',
    gitCommit: gitCommitOf(dirname(packageFile('package.json'))),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    suites: tasks.map((t) => ({
      suite: t.suite,
      items: t.items.length,
      itemsSha256: contentHash(t.items.map(itemHash)),
      dataset: datasetOf(manifest, t.suite),
    })),
    templates,
  };
}
