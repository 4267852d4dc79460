// The EnactToM judge council (paper, Section 4.2): each judge scores a drafted task on eight
// [0,1] criteria, seven shared and one by category (task interdependence for cooperative tasks,
// subgoal tension for mixed ones). A judge approves when its mean is >= 0.65 and no criterion is
// below 0.5; the council approves only when every judge does ("a task passes only when both agree").

/** The seven criteria every task is scored on. */
export const SHARED_TASK_CRITERIA = [
  'agent_necessity',
  'secret_quality',
  'public_private_grounding',
  'narrative_consistency',
  'goal_relevance',
  'mechanic_utilization',
  'formal_goal_quality',
] as const;

export type TaskCriterion = (typeof SHARED_TASK_CRITERIA)[number] | 'task_interdependence' | 'subgoal_tension';

/** The paper's acceptance thresholds (tuned on 50 hand-rated tasks). */
export const COUNCIL_MEAN_THRESHOLD = 0.65;
export const COUNCIL_CRITERION_FLOOR = 0.5;

const DESCRIPTIONS: Record<TaskCriterion, string> = {
  agent_necessity: 'every agent is needed: no agent could finish the task alone',
  secret_quality:
    'secrets give each agent private facts (locations, mechanics) partners must learn, not instructions that prescribe the coordination',
  public_private_grounding: 'the public text and the secrets agree with the scene and with each other',
  narrative_consistency: 'the story is coherent and plausible for a household scene',
  goal_relevance: 'the formal goal matches what the task text asks for',
  mechanic_utilization: 'each mechanic bound in the task matters for solving it',
  formal_goal_quality: 'the PDDL goal is well-formed, and its K operators test what the agents must know',
  task_interdependence: "agents depend on each other's actions and knowledge (cooperative tasks)",
  subgoal_tension: 'private goals pull against the shared goal in a way that tests reasoning about partners (mixed tasks)',
};

/** The eight criteria for a task of this category. */
export function taskCriteria(category: 'cooperative' | 'mixed'): TaskCriterion[] {
  return [...SHARED_TASK_CRITERIA, category === 'mixed' ? 'subgoal_tension' : 'task_interdependence'];
}

/** The prompt one council judge gets for one drafted task (JSON in, one JSON object of scores out). */
export function councilPrompt(taskJson: string, category: 'cooperative' | 'mixed'): string {
  const criteria = taskCriteria(category);
  return [
    'You are a judge on the task council of an embodied multi-agent theory-of-mind benchmark (EnactToM).',
    'Score the drafted task below on each criterion from 0 (fails) to 1 (fully meets it).',
    '',
    ...criteria.map((c) => `- ${c}: ${DESCRIPTIONS[c]}`),
    '',
    'Drafted task (EnactToM JSON):',
    taskJson,
    '',
    // The fixes feed the author's next revision (paper: "per-criterion scores with required fixes").
    `For every criterion you score below ${COUNCIL_CRITERION_FLOOR}, give a short required fix: what the author must change.`,
    `Reply with one JSON object and nothing else: {${criteria.map((c) => `"${c}": number`).join(', ')}, "fixes": {"criterion": "required fix"}}`,
  ].join('\n');
}

export interface JudgeScores {
  judge: string;
  scores: Partial<Record<TaskCriterion, number>>;
  fixes: string[];
  /** Why the reply could not be read, when it could not. */
  error?: string;
}

/** Read one judge's reply: the first JSON object in it; every criterion must be a number in [0, 1]. */
export function parseCouncilReply(judge: string, text: string, category: 'cooperative' | 'mixed'): JudgeScores {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  let raw: Record<string, unknown>;
  try {
    if (start < 0 || end < start) throw new Error('no JSON object');
    raw = JSON.parse(text.slice(start, end + 1)) as Record<string, unknown>;
  } catch (err) {
    return { judge, scores: {}, fixes: [], error: `unreadable reply (${(err as Error).message})` };
  }
  const scores: Partial<Record<TaskCriterion, number>> = {};
  const missing: string[] = [];
  for (const c of taskCriteria(category)) {
    const v = Number(raw[c]);
    if (raw[c] === undefined || !Number.isFinite(v) || v < 0 || v > 1) missing.push(c);
    else scores[c] = v;
  }
  const fixes = readFixes(raw.fixes);
  return missing.length ? { judge, scores, fixes, error: `no score in [0, 1] for ${missing.join(', ')}` } : { judge, scores, fixes };
}

/** Fixes are optional: a list of strings, or an object from criterion to fix ("criterion: fix"). */
function readFixes(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (v && typeof v === 'object')
    return Object.entries(v as Record<string, unknown>)
      .filter(([, fix]) => fix !== null && fix !== undefined && String(fix).trim() !== '')
      .map(([c, fix]) => `${c}: ${String(fix)}`);
  return [];
}

export interface CouncilVerdict {
  approved: boolean;
  /** Per judge: its mean over the criteria counted. */
  means: Record<string, number>;
  /** Why not, one line per failing judge and criterion. */
  reasons: string[];
}

/**
 * The council's verdict. `ignore` leaves criteria out (the relaxed secret check drops
 * secret_quality), both from the mean and from the floor.
 */
export function councilVerdict(judges: JudgeScores[], category: 'cooperative' | 'mixed', ignore: TaskCriterion[] = []): CouncilVerdict {
  const counted = taskCriteria(category).filter((c) => !ignore.includes(c));
  const reasons: string[] = [];
  const means: Record<string, number> = {};
  for (const j of judges) {
    if (j.error) {
      reasons.push(`judge ${j.judge}: ${j.error}`);
      continue;
    }
    const values = counted.map((c) => j.scores[c] ?? 0);
    const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
    means[j.judge] = mean;
    for (const c of counted) {
      const s = j.scores[c] ?? 0;
      if (s < COUNCIL_CRITERION_FLOOR) reasons.push(`judge ${j.judge}: ${c} ${s.toFixed(2)} < ${COUNCIL_CRITERION_FLOOR}`);
    }
    if (mean < COUNCIL_MEAN_THRESHOLD) reasons.push(`judge ${j.judge}: mean ${mean.toFixed(2)} < ${COUNCIL_MEAN_THRESHOLD}`);
    if (j.fixes.length && reasons.some((r) => r.startsWith(`judge ${j.judge}:`)))
      reasons.push(`judge ${j.judge} fixes: ${j.fixes.join('; ')}`);
  }
  if (judges.length === 0) reasons.push('no judges');
  return { approved: reasons.length === 0, means, reasons };
}
