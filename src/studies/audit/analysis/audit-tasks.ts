// The audit's independent pieces of work: one factor structure, one stage-1 cell, one stage-3
// cell. Each is described by plain data (typed arrays and options), so that it can run in
// process or on a worker thread with the same result: every piece has its own seed.

import { convergenceCell, type CellData, type ConvergenceCell, type ConvergenceOptions } from './convergent-validity.js';
import { crossFitCell, type CrossFitCell, type CrossFitOptions } from './cross-fit.js';
import { structureOf, type StructureOptions, type StructureResult } from './factor-structure.js';

export type AuditTask =
  | {
      kind: 'structure';
      name: string;
      models: number /** responses[item * models + model] */;
      responses: Uint8Array;
      /** Each item's category, in item order (for the common-variance share). */
      categories?: string[];
      options: StructureOptions;
    }
  | { kind: 'convergence'; cell: CellData; options: ConvergenceOptions }
  | { kind: 'cross-fit'; cell: CellData; options: CrossFitOptions };

export type AuditTaskResult = StructureResult | ConvergenceCell | CrossFitCell;

/** Rough cost, to hand out the largest pieces first. */
export function taskCost(t: AuditTask): number {
  if (t.kind === 'structure') return t.responses.length * 40;
  const items = (t.cell.a.length + t.cell.b.length) / t.cell.models;
  return t.kind === 'convergence' ? items * (t.options.iterations ?? 1000) * 0.1 : items * (t.options.seeds ?? 10) * 5;
}

export function runAuditTask(t: AuditTask): AuditTaskResult {
  switch (t.kind) {
    case 'structure': {
      const items = Array.from({ length: t.responses.length / t.models }, (_, k) => ({
        responses: t.responses.subarray(k * t.models, (k + 1) * t.models),
        category: t.categories?.[k],
      }));
      return structureOf(t.name, items, t.models, t.options);
    }
    case 'convergence':
      return convergenceCell(t.cell, t.options);
    case 'cross-fit':
      return crossFitCell(t.cell, t.options);
  }
}
