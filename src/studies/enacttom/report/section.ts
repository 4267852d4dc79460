// The run report's section on embodied episodes: the figures by ToM depth, metrics per subject
// and scope, failure modes and transcripts.

import { summarizeEpisodes } from '../analysis/index.js';
import type { ReportContext } from '../../../app/index.js';
import { renderEpisodeFigures } from './episode-charts.js';
import { renderEpisodeSection } from './episode-report.js';

/** The episodes of a run as a report section, or undefined when it has none. */
export async function episodeReportSection(ctx: ReportContext): Promise<string | undefined> {
  const episodes = await summarizeEpisodes(ctx.store, ctx.runId);
  if (!episodes.episodes.length) return undefined;
  return `${await renderEpisodeFigures(episodes.metrics)}\n${renderEpisodeSection(episodes)}`;
}
