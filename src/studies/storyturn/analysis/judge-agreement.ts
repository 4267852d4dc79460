// How far a judge panel's verdicts agree with human labels (CoMMET chose its judge by agreement
// with human experts, Appendix C): human labels of stored StoryTurn answers (right or wrong, per
// turn or per story) against the verdicts the run holds, as Cohen's kappa and Gwet's AC1 with
// the percent agreement and the confusion table; per rater, all raters together, and between
// raters where two or more labelled the same answer. Open turns are the judge's decisions; labels
// of closed turns are compared with the exact-match verdict and reported apart.

import { decimalNumber, InputError, JudgedStoryDetailSchema, parseCsv, readRecord, readScoreDetail } from '../../../core/index.js';
import { gwetAC1, twoRaterAgreement, type TwoRaterAgreement } from '../../../stats/index.js';
import type { Store } from '../../../store/index.js';
import { STORYTURN_RECORDS } from '../protocol/records.js';

export interface HumanLabel {
  line: number;
  /** The subject's spec (or its opaque id). */
  subject: string;
  item: string;
  replicate: number;
  /** 1-based turn; null labels the whole story. */
  turn: number | null;
  rater: string;
  correct: boolean;
}

const TRUE = new Set(['1', 'true', 'yes', 'correct', 'right']);
const FALSE = new Set(['0', 'false', 'no', 'incorrect', 'wrong']);

/** Labels from a CSV `subject,item,turn,label[,rater][,replicate]` (label 1/0, correct/incorrect, right/wrong, yes/no; turn blank = the story). */
export function parseHumanLabels(text: string, file = '<labels>'): HumanLabel[] {
  const rows = parseCsv(text, file);
  if (rows.length < 2) throw new InputError('expected a header (subject,item,turn,label[,rater][,replicate]) and rows', file);
  const header = rows[0]!.fields.map((h) => h.trim().toLowerCase());
  const col = (n: string, required = true) => {
    const i = header.indexOf(n);
    if (i < 0 && required)
      throw new InputError(`no "${n}" column (expected subject, item, turn, label and optionally rater, replicate)`, file, 1);
    return i;
  };
  const [s, it, tu, lb, ra, re] = [col('subject'), col('item'), col('turn'), col('label'), col('rater', false), col('replicate', false)];
  return rows.slice(1).map((r) => {
    const f = r.fields.map((x) => x.trim());
    if (f.length !== header.length) throw new InputError(`row has ${f.length} fields, the header has ${header.length}`, file, r.line);
    const label = f[lb]!.toLowerCase();
    if (!TRUE.has(label) && !FALSE.has(label))
      throw new InputError(`label must be 1/0, correct/incorrect, right/wrong or yes/no, not "${f[lb]}"`, file, r.line);
    const turn = f[tu] === '' ? null : decimalNumber(f[tu]!);
    if (turn !== null && !(Number.isInteger(turn) && turn >= 1))
      throw new InputError(`turn must be a whole number from 1 or blank, not "${f[tu]}"`, file, r.line);
    const replicate = re >= 0 && f[re] !== '' ? decimalNumber(f[re]!) : 0;
    if (!Number.isInteger(replicate) || replicate < 0)
      throw new InputError(`replicate must be a whole number, not "${f[re]}"`, file, r.line);
    return {
      line: r.line,
      subject: f[s]!,
      item: f[it]!,
      replicate,
      turn,
      rater: ra >= 0 && f[ra] ? f[ra]! : 'human',
      correct: TRUE.has(label),
    };
  });
}

export interface JudgeAgreement {
  scorer: string;
  /** Labels matched to a stored verdict, and those that matched nothing (listed by line). */
  matched: number;
  unmatched: number[];
  /** Open turns and whole stories: the judge's decisions. */
  judge: (TwoRaterAgreement & { byRater: Array<{ rater: string } & TwoRaterAgreement> }) | null;
  /** Closed turns: the exact-match verdicts. */
  exact: TwoRaterAgreement | null;
  /** Gwet's AC1 among human raters on answers two or more of them labelled (null when none). */
  betweenRaters: { answers: number; ac1: number; percentAgreement: number } | null;
}

/**
 * Human labels against a run's verdicts: the judge scorer's (`judge:RUBRIC`, see
 * storyJudgeScorer) for open turns and whole stories, exact match for closed turns.
 */
export async function judgeHumanAgreement(
  store: Store,
  runId: string,
  judgeScorer: string,
  labels: readonly HumanLabel[],
): Promise<JudgeAgreement> {
  const trials = new Map<string, { subjectId: string; suite: string; itemId: string; replicate: number }>();
  for await (const r of store.responses(runId, STORYTURN_RECORDS.scorer)) {
    for (const who of [r.spec, r.subjectId]) trials.set(`${who}\u0000${r.itemId}\u0000${r.replicate}`, r);
  }
  const judgePairs: Array<{ rater: string; human: boolean; machine: boolean }> = [];
  const exactPairs: Array<{ human: boolean; machine: boolean }> = [];
  const unmatched: number[] = [];
  const byAnswer = new Map<string, Map<string, boolean>>();
  for (const l of labels) {
    const t = trials.get(`${l.subject}\u0000${l.item}\u0000${l.replicate}`);
    const key = t ? { runId, subjectId: t.subjectId, suite: t.suite, itemId: t.itemId, replicate: t.replicate } : undefined;
    const judged = key ? await store.scoreOf(key, judgeScorer) : undefined;
    const verdicts = judged ? readScoreDetail(JudgedStoryDetailSchema, judged.detail) : undefined;
    if (!key || !verdicts) {
      unmatched.push(l.line);
      continue;
    }
    const answer = `${key.subjectId}\u0000${key.itemId}\u0000${key.replicate}\u0000${l.turn ?? 'story'}`;
    const raters = byAnswer.get(answer) ?? new Map<string, boolean>();
    raters.set(l.rater, l.correct);
    byAnswer.set(answer, raters);
    if (l.turn === null) {
      judgePairs.push({ rater: l.rater, human: l.correct, machine: verdicts.turns.every((v) => v.correct) });
      continue;
    }
    const v = verdicts.turns.find((x) => x.turn === l.turn);
    if (!v) {
      unmatched.push(l.line);
      continue;
    }
    if (v.open) judgePairs.push({ rater: l.rater, human: l.correct, machine: v.correct });
    else {
      const stored = await store.transcript(key);
      const d = stored ? readRecord(STORYTURN_RECORDS, stored.transcript, `${key.suite}/${key.itemId}`) : undefined;
      exactPairs.push({ human: l.correct, machine: d?.turns.find((x) => x.turn === l.turn)?.correct ?? v.correct });
    }
  }
  const agree = (ps: ReadonlyArray<{ human: boolean; machine: boolean }>) =>
    twoRaterAgreement(
      ps.map((p) => (p.human ? 'correct' : 'wrong')),
      ps.map((p) => (p.machine ? 'correct' : 'wrong')),
    );
  const raters = [...new Set(judgePairs.map((p) => p.rater))].sort();
  const shared = [...byAnswer.values()].filter((m) => m.size >= 2);
  const allRaters = [...new Set(labels.map((l) => l.rater))].sort();
  const between = shared.length ? gwetAC1(shared.map((m) => allRaters.map((r) => (m.has(r) ? String(m.get(r)) : null)))) : undefined;
  return {
    scorer: judgeScorer,
    matched: judgePairs.length + exactPairs.length,
    unmatched,
    judge: judgePairs.length
      ? { ...agree(judgePairs), byRater: raters.map((rater) => ({ rater, ...agree(judgePairs.filter((p) => p.rater === rater)) })) }
      : null,
    exact: exactPairs.length ? agree(exactPairs) : null,
    betweenRaters: between ? { answers: shared.length, ac1: between.coefficient, percentAgreement: between.pa } : null,
  };
}
