// The identity of a run: its specification with every file it names replaced by the hash of
// the file's content (a changed template is a different run; a moved one is not), and the
// generation settings filled in. Its content hash is the default run id, so the same command
// continues the same run. A spec with plain suite ids and model specs has the same identity,
// field for field, as the configurations mindscope 0.1 stored, so their runs continue too.

import { readFileSync } from 'node:fs';
import { ConfigError, contentHash, DEFAULT_SETTINGS, type GenerationSettings, type RunSpec } from '../core/index.js';
import { readIrtBank } from '../analysis/index.js';
import { templateFile } from '../protocols/index.js';

function fileHash(path: string, what: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`${path}: cannot read the ${what}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return contentHash(text);
}

/** The generation settings of the spec (for every model without settings of its own). */
export function specSettings(spec: RunSpec): GenerationSettings {
  return { ...DEFAULT_SETTINGS, ...spec.settings };
}

/** What defines the run's results, with files as content hashes: stored with the run and compared on resumption. */
export function runIdentity(spec: RunSpec): Record<string, unknown> {
  return {
    suites: spec.suites.map((s) =>
      typeof s === 'string' ? s : { ...s, ...(s.template ? { template: fileHash(templateFile(s.template), 'template') } : {}) },
    ),
    // A context window changes what a model sees; only entries with one carry the key, so other runs keep their ids.
    models: spec.models.map((m) =>
      typeof m === 'string'
        ? m
        : {
            spec: m.spec,
            settings: { ...specSettings(spec), ...m.settings },
            ...(m.contextWindow !== undefined ? { contextWindow: m.contextWindow } : {}),
          },
    ),
    data: spec.data ?? null,
    trials: spec.trials,
    seed: spec.seed,
    limit: spec.limit ?? null,
    shuffle: spec.shuffle,
    scoring: spec.scoring,
    // A built-in template (--template tombench) counts by its content, like a file.
    template: spec.template ? fileHash(templateFile(spec.template), 'template') : 'default',
    ...(spec.traces ? { traces: fileHash(spec.traces, 'trace file') } : {}),
    // One sentence counts as it did when the flag took no number (true).
    ...(spec.tracesDropLast === true || spec.tracesDropLast === 1
      ? { tracesDropLast: true }
      : spec.tracesDropLast
        ? { tracesDropLast: spec.tracesDropLast }
        : {}),
    ...(spec.images ? { images: true } : {}),
    fields: spec.fields ?? null,
    settings: specSettings(spec),
    ...(spec.options && Object.keys(spec.options).length ? { options: spec.options } : {}),
    // Only IRT runs carry this key, so the ids of full runs stay as they were.
    ...(spec.irt ? { irt: irtIdentity(spec.irt) } : {}),
  };
}

/** An IRT run's settings with the bank as its id (its content hash) and panel matrices as file hashes. */
function irtIdentity(irt: NonNullable<RunSpec['irt']>): Record<string, unknown> {
  const bankId = readIrtBank(irt.bank).bankId;
  if (irt.mode === 'adaptive') {
    const { bank: _b, ...rest } = irt;
    return { ...rest, maxItems: irt.maxItems ?? null, bank: bankId };
  }
  const { bank: _b, matrix, ...rest } = irt;
  return {
    ...rest,
    strategy: irt.strategy ?? null,
    bank: bankId,
    ...(matrix?.length ? { matrix: matrix.map((m) => fileHash(m, 'panel matrix')) } : {}),
  };
}

/** The default run id: `run-` and the first 12 hex digits of the identity's hash. */
export function runIdOf(identity: Record<string, unknown>): string {
  return `run-${contentHash(identity).slice(0, 12)}`;
}
