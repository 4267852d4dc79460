// The author's tools (paper, Section 4.2: "new_scene, bash, judge, test_task, and submit_task"),
// called through a documented JSON action protocol: the model layer has no tool calling, so each
// reply ends with one JSON object {"tool": NAME, "args": {...}} and the tool's result is the next
// user message. The workspace holds one draft's state: its scene, and the versions of the task
// that passed test_task and judge; "submit_task requires both judge and test_task to have
// passed" on the very version submitted. Editing the task file with bash and jq is replaced by
// sending the whole task with each call.

import { createHash } from 'node:crypto';
import type { EmbodiedTask } from '../world/index.js';
import { authorScene, type AuthorScene } from './author-scene.js';
import { structuralChecks, testDraft, type AuthoringAblations, type DraftRequest, type DraftTest } from './draft-checks.js';
import type { CouncilVerdict, JudgeScores } from './task-council.js';

export const AUTHOR_TOOLS = ['inspect_scene', 'new_scene', 'test_task', 'judge', 'submit_task'] as const;
export type AuthorTool = (typeof AUTHOR_TOOLS)[number];

/** What each tool does and takes, as the author's prompt lists it. */
export const TOOL_HELP: Record<AuthorTool, string> = {
  inspect_scene:
    '{} - the scene graph (rooms, furniture, objects, where agents start), the blank task template, and the predicates, mechanics and actions available',
  new_scene: '{} - a different scene to start over from',
  test_task:
    '{"task": TASK} - structural validation, the category and K-depth checks, the verifier (solvable within the turn limit; calibration: the physical goal solvable with every secret revealed; messages needed; no trivial K goal), the secret checks, and the budgets the task would get; PASS or FAIL with the planner diagnostics or its baseline plan',
  judge:
    '{"task": TASK} - the structural and K-depth checks, then the judge council: each judge scores eight criteria in [0, 1] and gives required fixes; PASS when every judge has a mean >= 0.65 and no criterion below 0.5',
  submit_task: '{"task": TASK} - submit the task; accepted only when test_task and judge have both passed on this exact version',
};

export interface ToolCall {
  tool: AuthorTool;
  args: Record<string, unknown>;
}

/** The tool call a reply ends with (its last JSON object, fenced or bare), or why there is none. */
export function readToolCall(reply: string): ToolCall | string {
  const fenced = [...reply.matchAll(/```(?:json)?\s*([\s\S]*?)```/g)].map((m) => m[1]!);
  const candidates = fenced.length ? fenced.reverse() : [reply.slice(reply.indexOf('{'), reply.lastIndexOf('}') + 1)];
  let parsed: unknown;
  let error = 'the reply holds no JSON object';
  for (const text of candidates) {
    if (!text.trim().startsWith('{')) continue;
    try {
      parsed = JSON.parse(text);
      break;
    } catch (err) {
      error = `the JSON does not parse (${(err as Error).message})`;
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return `no tool call: ${error}`;
  const o = parsed as Record<string, unknown>;
  const tool = String(o.tool ?? o.name ?? '');
  if (!(AUTHOR_TOOLS as readonly string[]).includes(tool))
    return `no tool call: "tool" must be one of ${AUTHOR_TOOLS.join(', ')}${tool ? `, got "${tool}"` : ''}`;
  // The arguments, or the object's other fields when they are not nested under "args".
  const { tool: _t, name: _n, args, ...rest } = o;
  return {
    tool: tool as AuthorTool,
    args: args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : rest,
  };
}

/** A key per version of a task: the same JSON whatever the order of its fields. */
function versionKey(task: Record<string, unknown>): string {
  const canon = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canon)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash('sha256')
    .update(JSON.stringify(canon(task)))
    .digest('hex');
}

/** The council as a tool: scores for one task (judges' replies read), its verdict. */
export type CouncilFn = (
  taskJson: string,
  category: 'cooperative' | 'mixed',
) => Promise<{ judges: JudgeScores[]; verdict: CouncilVerdict }>;
/** A model team playing the task with every secret revealed (the paper's calibrator): passed, and a trace. */
export type TeamCalibrationFn = (task: EmbodiedTask) => Promise<{ passed: boolean; text: string }>;

export interface ToolResult {
  tool: AuthorTool | null;
  ok: boolean;
  text: string;
  /** submit_task accepted: the task as it enters the pool, with what test_task and judge said of it. */
  accepted?: { task: Record<string, unknown>; test: DraftTest; council: CouncilVerdict };
}

/** One draft's workspace: its scene and what passed, and the tools acting on them. */
export class AuthorWorkspace {
  scene: AuthorScene;
  /** The last version given to test_task, judge or submit_task, with what test_task said of it. */
  last: { task: Record<string, unknown>; test?: DraftTest; council?: { judges: JudgeScores[]; verdict: CouncilVerdict } } | null = null;
  readonly #tested = new Map<string, DraftTest>();
  readonly #judged = new Map<string, CouncilVerdict>();

  constructor(
    readonly req: DraftRequest,
    readonly ablations: AuthoringAblations,
    readonly where: string,
    readonly sceneSeed: { seed: number; draft: number },
    readonly council: CouncilFn,
    readonly calibrateTeam?: TeamCalibrationFn,
  ) {
    this.scene = authorScene(sceneSeed.seed, sceneSeed.draft, 1, req.category, req.depth);
  }

  /** Run one tool call; an unreadable call gets an error result naming the protocol. */
  async call(call: ToolCall | string): Promise<ToolResult> {
    if (typeof call === 'string')
      return {
        tool: null,
        ok: false,
        text: `${call}. End your reply with one JSON object {"tool": NAME, "args": {...}}; NAME is one of ${AUTHOR_TOOLS.join(', ')}.`,
      };
    if (call.tool === 'inspect_scene') return { tool: call.tool, ok: true, text: this.scene.text };
    if (call.tool === 'new_scene') {
      this.scene = authorScene(this.sceneSeed.seed, this.sceneSeed.draft, this.scene.number + 1, this.req.category, this.req.depth);
      return { tool: call.tool, ok: true, text: this.scene.text };
    }
    const task = readTaskArg(call.args);
    if (typeof task === 'string') return { tool: call.tool, ok: false, text: `${call.tool}: ${task}` };
    if (call.tool === 'test_task') return this.#test(task);
    if (call.tool === 'judge') return this.#judge(task);
    return this.#submit(task);
  }

  async #test(task: Record<string, unknown>): Promise<ToolResult> {
    const t = testDraft(task, this.req, this.ablations, this.where);
    const lines: string[] = [];
    // The model team's calibration runs once every deterministic gate has passed.
    if (t.reasons.length === 0 && t.final && this.calibrateTeam && !this.ablations.noCalibration) {
      const c = await this.calibrateTeam(structuralChecks(t.final, this.req, this.where).task!);
      lines.push(c.text);
      if (!c.passed) t.reasons.push('calibration: the team failed the task even with every secret revealed');
    }
    this.last = { task, test: t };
    const ok = t.reasons.length === 0;
    if (ok) this.#tested.set(versionKey(task), t);
    const v = t.verify;
    return {
      tool: 'test_task',
      ok,
      text: [
        `test_task: ${ok ? 'PASS' : 'FAIL'}`,
        ...t.reasons.map((r) => `- ${r}`),
        ...(v
          ? [
              `Verifier: goal K-depth ${v.kDepth}; solvable ${v.solvable}${v.rounds !== null ? ` in ${v.rounds} round(s)` : ''}; minimal ToM level ${v.minToMLevel ?? 'none'}; calibrates (every secret revealed) ${v.calibrates}; needs messages ${v.needsCommunication}${v.trivialK.length ? `; trivial K goals ${v.trivialK.join(', ')}` : ''}.`,
              ...v.explanations.map((e) => `Why not: ${e}`),
            ]
          : []),
        ...(t.plan.length ? ['Baseline plan:', ...t.plan.slice(0, 40).map((p) => `  ${p}`)] : []),
        ...(t.budgets ? [`On acceptance: ${t.budgets}.`] : []),
        ...lines,
      ].join('\n'),
    };
  }

  async #judge(task: Record<string, unknown>): Promise<ToolResult> {
    const s = structuralChecks(task, this.req, this.where);
    if (!s.task || s.reasons.length) {
      this.last = { task };
      return {
        tool: 'judge',
        ok: false,
        text: ['judge: FAIL (not scored: the structural and K-depth checks failed)', ...s.reasons.map((r) => `- ${r}`)].join('\n'),
      };
    }
    const council = await this.council(JSON.stringify(task, null, 2), s.task.category);
    this.last = { task, council };
    const ok = council.verdict.approved;
    if (ok) this.#judged.set(versionKey(task), council.verdict);
    return { tool: 'judge', ok, text: [`judge: ${ok ? 'PASS' : 'FAIL'}`, ...councilLines(council.judges, council.verdict)].join('\n') };
  }

  #submit(task: Record<string, unknown>): ToolResult {
    const key = versionKey(task);
    const test = this.#tested.get(key);
    const council = this.#judged.get(key);
    const missing = [...(test ? [] : ['test_task']), ...(council ? [] : ['judge'])];
    if (!test?.final || !council)
      return {
        tool: 'submit_task',
        ok: false,
        text: `submit_task: REFUSED: ${missing.join(' and ')} ha${missing.length > 1 ? 've' : 's'} not passed on this exact version of the task (call them with it first).`,
      };
    return { tool: 'submit_task', ok: true, text: 'submit_task: ACCEPTED', accepted: { task: test.final, test, council } };
  }
}

/** The task argument: an object, or a JSON string of one. */
function readTaskArg(args: Record<string, unknown>): Record<string, unknown> | string {
  let t = args.task;
  if (typeof t === 'string') {
    try {
      t = JSON.parse(t);
    } catch (err) {
      return `"task" is a string that is not JSON (${(err as Error).message})`;
    }
  }
  if (!t || typeof t !== 'object' || Array.isArray(t)) return 'give the whole task as one JSON object under "task"';
  return t as Record<string, unknown>;
}

/** Each judge's scores and required fixes, and the council's reasons. */
function councilLines(judges: JudgeScores[], verdict: CouncilVerdict): string[] {
  const lines: string[] = [];
  for (const j of judges) {
    if (j.error) {
      lines.push(`- judge ${j.judge}: ${j.error}`);
      continue;
    }
    const mean = verdict.means[j.judge];
    lines.push(
      `- judge ${j.judge}${mean === undefined ? '' : ` (mean ${mean.toFixed(2)})`}: ${Object.entries(j.scores)
        .map(([c, s]) => `${c} ${s.toFixed(2)}`)
        .join(', ')}`,
    );
    for (const f of j.fixes) lines.push(`  required fix: ${f}`);
  }
  return [...lines, ...verdict.reasons.map((r) => `Why not: ${r}`)];
}
