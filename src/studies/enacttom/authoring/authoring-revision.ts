// The revision step of `mindscope embodied author` (paper, Section 4.2, "Iteration"): a draft
// that fails a gate goes back to its author with structured feedback (every reason, the
// verifier's diagnostics, each judge's per-criterion scores and required fixes) and the author
// revises it. The feedback is a follow-up turn after the author's own previous reply.

import type { ChatMessage } from '../../../core/index.js';
import { COUNCIL_CRITERION_FLOOR, type CouncilVerdict, type JudgeScores } from './task-council.js';
import type { VerifyResult } from '../world/index.js';

/** One version of a draft (revision 0 is the first try) with what its gates said. */
export interface DraftAttempt {
  /** 0 for the first try, k for the k-th revision. */
  revision: number;
  accepted: boolean;
  reasons: string[];
  /** The version's JSON, when the reply held one. */
  task: Record<string, unknown> | null;
  reply: string;
  verify?: Pick<VerifyResult, 'kDepth' | 'solvable' | 'minToMLevel' | 'calibrates' | 'needsCommunication' | 'trivialK' | 'explanations'>;
  council?: CouncilVerdict;
  /** Each judge's scores and fixes, when the council ran. */
  judges?: JudgeScores[];
}

/** The feedback text for a failed version: reasons, verifier diagnostics, council scores and fixes. */
export function draftFeedback(a: DraftAttempt): string {
  const lines = ['Your draft failed these checks:', ...a.reasons.map((r) => `- ${r}`)];
  if (a.verify) {
    const v = a.verify;
    lines.push(
      '',
      `Verifier: goal K-depth ${v.kDepth}; solvable ${v.solvable ?? 'undecided'}; calibrates (every secret revealed) ${v.calibrates ?? 'undecided'}; needs messages ${v.needsCommunication ?? 'undecided'}; minimum ToM level ${v.minToMLevel ?? 'none'}${v.trivialK.length ? `; trivial K goals ${v.trivialK.join(', ')}` : ''}.`,
      ...v.explanations.map((e) => `- ${e}`),
    );
  }
  if (a.judges?.length) {
    lines.push('', `Council scores (each judge needs a mean >= 0.65 and no criterion below ${COUNCIL_CRITERION_FLOOR}):`);
    for (const j of a.judges) {
      if (j.error) lines.push(`- judge ${j.judge}: ${j.error}`);
      else
        lines.push(
          `- judge ${j.judge}${a.council?.means[j.judge] === undefined ? '' : ` (mean ${a.council.means[j.judge]!.toFixed(2)})`}: ${Object.entries(
            j.scores,
          )
            .map(([c, s]) => `${c} ${s.toFixed(2)}${s < COUNCIL_CRITERION_FLOOR ? ' (below the floor)' : ''}`)
            .join(', ')}`,
        );
      for (const f of j.fixes) lines.push(`  required fix: ${f}`);
    }
  }
  return lines.join('\n');
}

/**
 * The messages of one revision request: the first prompt, the author's previous reply, then the
 * feedback. Draft index and revision number keep each request distinct (its own cached answer).
 */
export function revisionMessages(
  firstPrompt: string,
  previous: DraftAttempt,
  index: number,
  n: number,
  revision: number,
  maxRevisions: number,
): ChatMessage[] {
  return [
    { role: 'user', content: firstPrompt },
    { role: 'assistant', content: previous.reply },
    {
      role: 'user',
      content: [
        draftFeedback(previous),
        '',
        'Revise the task so that it passes every check above, keeping what already works.',
        'Reply with the whole revised task as one JSON object and nothing else.',
        `(Draft ${index + 1} of ${n}, revision ${revision} of ${maxRevisions}.)`,
      ].join('\n'),
    },
  ];
}
