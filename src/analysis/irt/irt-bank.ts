// The item bank: calibrated item parameters in a versioned JSON file. Each item carries the
// content hash of the item it was calibrated on (the runner's item hash), so that a bank is
// refused for items that have changed since. `bankId` is the content hash of everything else,
// so two banks with the same id hold the same calibration; `formatVersion` is the file
// format's version, and readers refuse newer ones. No timestamps: the same panel and settings
// give the same bytes.
// Version 2 adds multidimensional (M2PL) banks: `dimensions` (k, how k was chosen, the rotation)
// and per item its `slopes` (dimension 1 the general one) and `intercept`; their a and b are the
// general dimension's marginal curve, so readers of version 1 fields keep working. Banks
// without dimensions are still written as version 1, and both versions are read.

import { readFileSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import { checkJsonDepth, contentHash, InputError } from '../../core/index.js';
import type { IrtItems } from '../../stats/irt/index.js';

export const IRT_BANK_FORMAT = 'mindscope-irt-bank';
export const IRT_BANK_FORMAT_VERSION = 2;

const nullableNumber = z.number().nullable();

const bankItemSchema = z.object({
  suite: z.string().min(1),
  id: z.string().min(1),
  category: z.string(),
  /** SHA-256 of the item's content; null when the panel's items were not available to hash. */
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'expected a 64-digit hex SHA-256')
    .nullable(),
  a: z.number().positive(),
  b: z.number(),
  c: z.number().min(0).lt(1),
  /** Bifactor: slope on the item's category factor. */
  aSpecific: z.number().optional(),
  /** M2PL: slopes on each dimension (fixed zeros are 0) and the intercept. */
  slopes: z.array(z.number()).optional(),
  intercept: z.number().optional(),
  /** M2PL: `slopes` (null where fixed at zero) and `intercept` have SEs of their own; a and b have none. */
  se: z.object({
    a: nullableNumber,
    b: nullableNumber,
    c: nullableNumber,
    aSpecific: nullableNumber.optional(),
    slopes: z.array(nullableNumber).optional(),
    intercept: nullableNumber.optional(),
  }),
  fit: z.object({ infit: nullableNumber, outfit: nullableNumber, infitT: nullableNumber, outfitT: nullableNumber }),
  /** Panel answers to the item and their mean. */
  n: z.number().int().nonnegative(),
  pCorrect: nullableNumber,
});

const groupSchema = z.object({
  suite: z.string(),
  /** null: the whole suite. */
  category: z.string().nullable(),
  items: z.number().int().positive(),
  /** Mean over panel models of the variance of their correctness on the group's items. */
  meanVariance: z.number().nonnegative(),
  /** Mean absolute error of IRT accuracy predictions on held-out panel models; null when not validated. */
  irtMae: nullableNumber,
});

export const irtBankSchema = z.object({
  format: z.literal(IRT_BANK_FORMAT),
  formatVersion: z.union([z.literal(1), z.literal(IRT_BANK_FORMAT_VERSION)]),
  bankId: z.string(),
  tool: z.object({ name: z.string(), version: z.string() }),
  model: z.enum(['1pl', '2pl', '3pl', 'bifactor', 'm2pl']),
  settings: z.record(z.string(), z.unknown()),
  panel: z.object({
    source: z.string(),
    models: z.array(z.string()),
    abilities: z.array(z.object({ model: z.string(), theta: z.number(), se: z.number(), thetas: z.array(z.number()).optional() })),
  }),
  convergence: z.object({
    iterations: z.number().int(),
    converged: z.boolean(),
    logLikelihood: z.number(),
    logPosterior: z.number(),
  }),
  groups: z.array(groupSchema),
  items: z.array(bankItemSchema).min(1),
  /** M2PL: the dimensions (version 2). */
  dimensions: z
    .object({
      k: z.number().int().positive(),
      /** 'exploratory', 'category' (general + one per category) or 'pattern' (given by the user). */
      structure: z.enum(['exploratory', 'category', 'pattern']),
      rotation: z.enum(['principal-axes', 'pattern']),
      names: z.array(z.string()),
      /** How k was chosen: held-out log likelihood per cell for each k tried; null when k was given. */
      choice: z
        .object({ heldOutCells: z.number().int(), scores: z.array(z.object({ k: z.number().int(), heldOutLogLik: z.number() })) })
        .nullable(),
      nodes: z.string(),
    })
    .optional(),
  /** Bifactor: the category factors, in order. */
  specificFactors: z.array(z.string()).optional(),
  dropped: z.array(z.object({ suite: z.string(), id: z.string(), reason: z.string() })),
  warnings: z.array(z.string()),
});

export type IrtBank = z.infer<typeof irtBankSchema>;
export type IrtBankItem = IrtBank['items'][number];
export type IrtBankGroup = IrtBank['groups'][number];

/** The key of an item in banks and tiny sets: suite and id. */
export function irtItemKey(suite: string, id: string): string {
  return `${suite}\u0000${id}`;
}

/** Everything the bank id covers: the whole bank but the id itself. */
export function computeBankId(bank: Omit<IrtBank, 'bankId'> & { bankId?: string }): string {
  const { bankId: _id, ...rest } = bank;
  return `bank-${contentHash(rest).slice(0, 16)}`;
}

/** The bank's item parameters as typed arrays, in bank order. */
export function bankItemParams(bank: IrtBank): IrtItems {
  return {
    a: Float64Array.from(bank.items, (i) => i.a),
    b: Float64Array.from(bank.items, (i) => i.b),
    c: Float64Array.from(bank.items, (i) => i.c),
  };
}

/** JSON text of a bank (two-space indent, trailing newline). */
export function formatIrtBank(bank: IrtBank): string {
  return `${JSON.stringify(bank, null, 2)}\n`;
}

/** Write an item bank (parameters, standard errors, item content hashes, the panel and fit diagnostics) as versioned JSON. */
export function writeIrtBank(path: string, bank: IrtBank): void {
  writeFileSync(path, formatIrtBank(bank));
}

function describeIssues(error: z.ZodError, limit = 5): string {
  const lines = error.issues.slice(0, limit).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  if (error.issues.length > limit) lines.push(`and ${error.issues.length - limit} more`);
  return lines.join('; ');
}

/** Validate parsed JSON as a bank; `file` names the source in errors. */
export function parseIrtBank(value: unknown, file = '<bank>'): IrtBank {
  if (value && typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (v.format !== IRT_BANK_FORMAT) throw new InputError(`not an IRT item bank (format is ${JSON.stringify(v.format)})`, file);
    if (typeof v.formatVersion === 'number' && v.formatVersion > IRT_BANK_FORMAT_VERSION)
      throw new InputError(
        `bank format version ${v.formatVersion} is newer than this mindscope reads (${IRT_BANK_FORMAT_VERSION}); update mindscope`,
        file,
      );
  }
  const parsed = irtBankSchema.safeParse(value);
  if (!parsed.success) throw new InputError(`invalid item bank: ${describeIssues(parsed.error)}`, file);
  const bank = parsed.data;
  if (bank.model === 'm2pl') {
    const dims = bank.dimensions;
    if (!dims || bank.formatVersion < 2) throw new InputError('an m2pl bank needs formatVersion 2 and its dimensions', file);
    bank.items.forEach((it, k) => {
      if (it.slopes?.length !== dims.k || it.intercept === undefined)
        throw new InputError(`items.${k}: an m2pl bank item needs ${dims.k} slopes and an intercept`, file);
    });
  }
  const id = computeBankId(bank);
  if (id !== bank.bankId)
    throw new InputError(`bankId ${bank.bankId} does not match the bank's contents (${id}): was it edited by hand?`, file);
  const seen = new Set<string>();
  bank.items.forEach((it, k) => {
    const key = irtItemKey(it.suite, it.id);
    if (seen.has(key)) throw new InputError(`items.${k}: item ${it.suite}/${it.id} appears twice`, file);
    seen.add(key);
  });
  return bank;
}

/** Read and validate an item bank; errors name the file and field. */
export function readIrtBank(path: string): IrtBank {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, path);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputError(`not JSON: ${(err as Error).message}`, path);
  }
  checkJsonDepth(text, path);
  return parseIrtBank(value, path);
}

export interface BankItemCheck {
  /** Items whose hash matched. */
  verified: number;
  /** Bank items without a hash (calibrated from a matrix whose items were not available). */
  unhashed: number;
  /** Bank items absent from the current items. */
  absent: string[];
}

/**
 * Check the bank against the current items (suite, id and content hash). Throws an InputError
 * naming every item whose content hash changed; with `requireHashes`, also when the bank has
 * items without a hash.
 */
export function verifyBankItems(
  bank: IrtBank,
  current: Iterable<{ suite: string; id: string; hash: string }>,
  opts: { requireHashes?: boolean; file?: string } = {},
): BankItemCheck {
  const now = new Map<string, string>();
  for (const c of current) now.set(irtItemKey(c.suite, c.id), c.hash);
  const changed: string[] = [];
  const absent: string[] = [];
  let verified = 0;
  let unhashed = 0;
  for (const it of bank.items) {
    const h = now.get(irtItemKey(it.suite, it.id));
    if (h === undefined) {
      absent.push(`${it.suite}/${it.id}`);
      continue;
    }
    if (it.hash === null) {
      unhashed++;
      continue;
    }
    if (h !== it.hash) changed.push(`${it.suite}/${it.id}`);
    else verified++;
  }
  if (changed.length > 0) {
    const list = changed.slice(0, 20).join(', ') + (changed.length > 20 ? ` and ${changed.length - 20} more` : '');
    throw new InputError(
      `bank ${bank.bankId}: ${changed.length} item(s) changed since calibration (content hash differs): ${list}. Recalibrate, or drop those items.`,
      opts.file,
    );
  }
  if (opts.requireHashes && unhashed > 0)
    throw new InputError(`bank ${bank.bankId}: ${unhashed} item(s) have no content hash, so they cannot be verified`, opts.file);
  return { verified, unhashed, absent };
}
