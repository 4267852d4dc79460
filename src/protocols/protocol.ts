// What a protocol is: everything about running one kind of item, in one place. Its items'
// payload type, how a trial is run and scored, the schemas of what it stores, the options it
// reads from a run specification, and how the reference subjects (agent:*) behave on it.
// Adding a protocol means writing one of these and registering it (see defineProtocol).

import type { CallContext, Item, PanelScore, RecordSchemas, Task } from '../core/index.js';

/** How one reference subject answers a call of this protocol; undefined declines (no ground truth to read). */
export interface ReferencePolicy {
  describe: string;
  reply(ctx: CallContext): string | undefined;
  /**
   * Whether the policy can answer an item at all (a belief tracker needs a world model): a run
   * warns at its start when it will decline items, rather than reporting only parse failures.
   */
  answers?(item: Item): boolean;
}

/** The run settings a protocol may read (see RunSpec): shared ones, and its own under `options[name]`. */
export interface ProtocolSettings {
  shuffle?: boolean;
  scoring?: string;
  /** Prompt template file (MCQ). */
  template?: string;
  /** Reasoning-trace file (MCQ). */
  traces?: string;
  /** Drop each trace's last sentence (true) or last N sentences too (MCQ). */
  tracesDropLast?: boolean | number;
  images?: boolean;
  /** Options of protocols added by users, by protocol name. */
  options?: Record<string, unknown>;
}

/** What a stored record says the subject answered: its reply, what the protocol read from it and the gold answer (JSON lists for multi-part records). */
export interface RecordAnswer {
  reply?: string | null;
  parsed?: string | null;
  gold?: string | null;
}

/** What a judge panel is shown of a trial: the response judged, the expected answer and the rubric's template variables. */
export interface JudgeTarget {
  response: string;
  expected: string;
  vars: Record<string, string>;
}

/** The rubric variables every target carries (empty where a protocol has nothing for them), so templates render alike. */
export function judgeVars(vars: Partial<Record<string, string>>): Record<string, string> {
  const base: Record<string, string> = {
    question: '',
    context: '',
    options: '',
    expected: '',
    condition: '',
    script: '',
    expected_intent: '',
    reply: '',
  };
  for (const [k, v] of Object.entries(vars)) if (v !== undefined) base[k] = v;
  return base;
}

/** A judge panel's verdict on one target: the aggregated fields (undefined when no judge answered) and the failures. */
export interface PanelVerdict extends PanelScore {
  /** Whether the rubric's first field reached the middle of its range. */
  passed: boolean;
}

/** How `mindscope score` judges a stored trial of a protocol. */
export interface JudgeHooks {
  /** The one target of a trial (undefined: nothing to judge, the trial is counted unscored). */
  target?(record: unknown, item: Item): JudgeTarget | undefined;
  /**
   * A trial judged in parts (StoryTurn's open turns): `judge` asks the panel about one target;
   * the result is the trial's score and its detail (undefined: unscored).
   */
  score?(
    record: unknown,
    item: Item | undefined,
    judge: (target: JudgeTarget) => Promise<PanelVerdict>,
  ): Promise<{ value: number; detail: Record<string, unknown> } | undefined>;
}

/**
 * How human participants' answers enter a stored run (`mindscope humans import`): each
 * participant is a scripted subject whose replies are their answers, numbered by part (1-based;
 * 0 for a row without a part) and run through the protocol like a model's.
 */
export interface HumanAnswerHooks {
  /** The part a call asks for (1-based), read from the call's info; undefined: the first. */
  part?(context: CallContext | undefined): number | undefined;
  /** Refuse, before the trial runs, answers the protocol cannot take (an InputError at `where`). */
  check(item: Item, answers: ReadonlyMap<number, string>, who: { participant: string; itemId: string; where: string }): void;
}

export interface ProtocolModule<P = unknown> {
  /** Stored with every transcript the protocol writes (see RecordSchemas). */
  readonly name: string;
  readonly describe: string;
  /** What its trials store, and the name of the score it gives (records.scorer). */
  readonly records: RecordSchemas;
  /** A ready task for a suite's items under the run's settings. */
  createTask(suite: string, items: Item<P>[], settings: ProtocolSettings): Task<P>;
  /** Reference subjects' behaviour on this protocol, by agent name. */
  readonly policies?: Readonly<Record<string, ReferencePolicy>>;
  /** What a stored record says the subject answered (exports, Inspect logs); absent: the last reply. */
  answer?(record: unknown): RecordAnswer;
  /** How judges score its trials (`mindscope score`); absent: its trials are not judged. */
  readonly judge?: JudgeHooks;
  /** How human answers are imported for its suites; absent: they cannot be. */
  readonly humans?: HumanAnswerHooks;
}

/**
 * Declare a protocol. The function only checks the declaration and returns it: registration
 * happens where the module is listed (the built-in list, or a user's config `plugins`).
 */
export function defineProtocol<P>(module: ProtocolModule<P>): ProtocolModule<P> {
  if (!/^[a-z][a-z0-9-]*$/.test(module.name))
    throw new Error(`protocol name "${module.name}" must be lower-case letters, digits and dashes`);
  if (module.records.protocol !== module.name) {
    throw new Error(`protocol ${module.name}: its record schemas are declared for "${module.records.protocol}"`);
  }
  return module;
}
