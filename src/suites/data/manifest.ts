// The manifest of the public ToM datasets mindscope fetches on demand (data/manifest.json,
// shipped with the package): where each file comes from, at which pinned revision, its SHA-256
// and size, the dataset's licence and citation, and the suites that read it.

import { z } from 'zod';
import { ConfigError, packageFile, readJson } from '../../core/index.js';

const DataFileSchema = z.strictObject({
  /** Path inside the dataset's cache folder (the layout the loaders read). */
  path: z.string().min(1),
  /** Path inside the source repository. */
  source: z.string().min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
});

const DatasetSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/),
  suites: z.array(z.string()).min(1),
  source: z.strictObject({
    /** github: fetched from the repository at the revision; mirror-only: no verified canonical address. */
    kind: z.enum(['github', 'huggingface', 'mirror-only']),
    repo: z.string(),
    revision: z.string(),
  }),
  licence: z.string(),
  citation: z.string(),
  files: z.array(DataFileSchema).min(1),
});
export type Dataset = z.infer<typeof DatasetSchema>;
export type DataFile = z.infer<typeof DataFileSchema>;

const ManifestSchema = z.strictObject({ version: z.literal(1), datasets: z.array(DatasetSchema) });
export type DataManifest = z.infer<typeof ManifestSchema>;

/** The manifest shipped with mindscope: data/manifest.json at the package root. */
export function defaultManifestPath(): string {
  return packageFile('data', 'manifest.json');
}

/** Read and validate a data manifest. */
export function readManifest(path = defaultManifestPath()): DataManifest {
  const parsed = ManifestSchema.safeParse(readJson(path));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`${path}: not a data manifest: ${issue?.message} at ${issue?.path.join('.')}`);
  }
  return parsed.data;
}

/** The dataset a suite reads, or undefined for suites that read the user's own files (or none). */
export function datasetForSuite(manifest: DataManifest, suite: string): Dataset | undefined {
  return manifest.datasets.find((d) => d.suites.includes(suite));
}

/** Where a file is fetched from: the mirror when one is set, else the source's canonical address. */
export function fileUrl(dataset: Dataset, file: DataFile, mirror?: string): string {
  if (mirror) return `${mirror.replace(/\/+$/, '')}/${dataset.id}/${file.path.split('/').map(encodeURIComponent).join('/')}`;
  const path = file.source.split('/').map(encodeURIComponent).join('/');
  switch (dataset.source.kind) {
    case 'github':
      return `https://github.com/${dataset.source.repo}/raw/${dataset.source.revision}/${path}`;
    case 'huggingface':
      return `https://huggingface.co/datasets/${dataset.source.repo}/resolve/${dataset.source.revision}/${path}`;
    default:
      throw new ConfigError(
        `dataset ${dataset.id} has no verified public address for its files: set MINDSCOPE_DATA_MIRROR to a mirror that serves them, or give the folder with --data`,
      );
  }
}
