// The run report's audit section (`report --audit`): the psychometric audit of the run's suites,
// each suite a benchmark, its subjects the models.

import { auditMatrices } from '../analysis/index.js';
import { runMatricesBySuite, type ReportContext } from '../../../app/index.js';
import { ConfigError } from '../../../core/errors.js';
import { renderAuditSection } from './audit-report.js';

/** The audit of a run's suites as a report section; a run of fewer than two suites or three subjects is refused. */
export async function auditReportSection(ctx: ReportContext): Promise<string> {
  const suites = await runMatricesBySuite(ctx.store, ctx.runId);
  if (suites.length < 2 || suites[0]!.matrix.subjects.length < 3) {
    throw new ConfigError(
      `report --audit needs a run with two or more suites and three or more subjects; run ${ctx.runId} has ${suites.length} suite(s) and ${suites[0]?.matrix.subjects.length ?? 0} subject(s)`,
    );
  }
  return renderAuditSection(await auditMatrices(suites, { seed: ctx.seed }));
}
