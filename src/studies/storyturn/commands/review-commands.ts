import type { Command } from 'commander';
import { extname } from 'node:path';
import { ConfigError } from '../../../index.js';
import {
  addReview,
  readStoryTurns,
  REQUIRED_REVIEWERS,
  REVIEW_ERRORS,
  reviewAgreement,
  reviewSummaries,
  saveStoryTurns,
  storyFileFormat,
  type ReviewAgreement,
  type StoryReviewSummary,
} from '../index.js';
import { formatTextTable } from '../../../report/index.js';
import { printResult } from '../../../cli/toolkit.js';

const num = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(3));

/** The reviewers' agreement in one line (stats and reviews print it). */
export function agreementLine(a: ReviewAgreement | null): string {
  if (!a) return 'reviewers: none (no story has verdicts)';
  const counts = a.byReviewer.map((r) => `${r.reviewer} ${r.approve} approve / ${r.reject} reject`).join(', ');
  if (a.versions === 0) return `reviewers: ${counts}; agreement: - (${a.reason})`;
  return `reviewers: ${counts}; agreement over ${a.versions} story version(s) judged by two or more reviewers (${a.verdicts} verdicts): ${(a.percentAgreement * 100).toFixed(1)}%, Fleiss' kappa ${num(a.fleissKappa)}, Gwet's AC1 ${num(a.gwetAC1)}${a.reason ? ` (kappa: ${a.reason})` : ''}`;
}

/** A story's verdicts in words. */
function verdictText(s: StoryReviewSummary): string {
  const parts = [
    ...(s.approvals.length ? [`approved by ${s.approvals.join(', ')}`] : []),
    ...s.rejections.map((r) => `rejected by ${r.reviewer}: ${r.errors.join(', ')}${r.note ? ` (${r.note})` : ''}`),
    ...(s.status === 'generated' && s.needed ? [`${s.needed} more approval(s) needed`] : []),
  ];
  return parts.join('; ') || 'no verdict on this version';
}

/** `storyturn review` (one reviewer's verdict) and `storyturn reviews` (every story's verdicts and the agreement). */
export function registerReview(cmd: Command): void {
  cmd
    .command('review')
    .description(
      `record one reviewer's verdict on a StoryTurn: approve, or reject with error types (${Object.keys(REVIEW_ERRORS).join(', ')}); a story is approved once ${REQUIRED_REVIEWERS} reviewers approve its current version and none rejects it`,
    )
    .argument('<file>', 'StoryTurn file (JSON or JSONL; a CSV or Parquet table needs --out)')
    .requiredOption('--id <id>', 'story id')
    .requiredOption('--reviewer <name>', 'who gives the verdict')
    .option('--approve', 'the story is free of errors')
    .option('--reject <types>', 'the error types found, separated by commas')
    .option('--note <text>', 'what is wrong, or what was checked')
    .option('--out <file>', 'write the reviewed stories here (.json or .jsonl) instead of back to <file>')
    .option('--json', 'print JSON: { id, status, approvals, rejections, needed, earlier }')
    .action(
      async (
        file: string,
        f: { id: string; reviewer: string; approve?: boolean; reject?: string; note?: string; out?: string; json?: boolean },
      ) => {
        if (!!f.approve === !!f.reject) throw new ConfigError('give exactly one of --approve and --reject TYPES');
        const out = f.out ?? file;
        if (!f.out && !['.json', '.jsonl', '.ndjson'].includes(extname(file).toLowerCase()))
          throw new ConfigError(`${file} is a table of turns: give --out FILE.json or FILE.jsonl for the reviewed stories`);
        storyFileFormat(out);
        const stories = await readStoryTurns(file);
        const decision = f.approve
          ? { reviewer: f.reviewer, approve: true as const, note: f.note }
          : {
              reviewer: f.reviewer,
              reject: f
                .reject!.split(',')
                .map((x) => x.trim())
                .filter(Boolean),
              note: f.note,
            };
        const updated = addReview(stories, f.id, decision);
        saveStoryTurns(out, updated);
        const s = reviewSummaries(updated).find((x) => x.id === f.id)!;
        printResult(f.json, s, `${f.id}: ${s.status} (${verdictText(s)})`);
      },
    );
  cmd
    .command('reviews')
    .description("each reviewed StoryTurn's verdicts on its current version, and the reviewers' agreement (Fleiss' kappa, Gwet's AC1)")
    .argument('<file>', 'StoryTurn file (JSON or JSONL)')
    .option('--json', 'print JSON: { stories: [{ id, status, approvals, rejections, needed, earlier }], agreement }')
    .action(async (file: string, f: { json?: boolean }) => {
      const stories = await readStoryTurns(file);
      const summaries = reviewSummaries(stories);
      const agreement = reviewAgreement(stories);
      const table = formatTextTable(
        ['story', 'status', 'verdicts on the current version', 'earlier verdicts'],
        summaries.map((s) => [s.id, s.status, verdictText(s), String(s.earlier)]),
      );
      printResult(
        f.json,
        { stories: summaries, agreement },
        `${summaries.length ? `${table}\n` : ''}${summaries.length} of ${stories.length} StoryTurn(s) reviewed; approved when ${REQUIRED_REVIEWERS} reviewers approve the current version and none rejects it\n${agreementLine(agreement)}\n`,
      );
    });
}
