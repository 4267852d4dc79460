// The JSON the viewer's API serves and its page reads (and a static export holds). Types only:
// the page imports them too, so that both sides agree.

import type { JudgeDetail, McqDetail, StoredTranscript } from '../core/index.js';
import type { EpisodeDetail, EpisodeTurn } from '../studies/enacttom/index.js';
import type { StoryTurnDetail } from '../studies/storyturn/index.js';
import type { DescribeDetail, DirectorDetail } from '../studies/vision/index.js';
import type { PairedCell } from '../analysis/index.js';
import type { RunActivity, StatusRow, TrialFacets, TrialListRow, UsageRow } from '../store/index.js';

/** One run as the Runs view shows it. */
export interface RunView {
  id: string;
  createdAt: string;
  toolVersion: string | null;
  config: Record<string, unknown>;
  subjects: Array<{ id: string; spec: string; settings: Record<string, unknown> }>;
  suites: string[];
  status: StatusRow[];
  usage: UsageRow[];
  activity: RunActivity;
  rubrics: Array<{ rubric: string; sha256: string }>;
  /** Audit reports (HTML files) found beside the store that name this run. */
  audits: string[];
}

export interface TrialPage {
  total: number;
  offset: number;
  rows: TrialListRow[];
}

/** A score of a trial: the protocol's own, or a judge panel's with each judge's raw output. */
export interface ScoreView {
  scorer: string;
  value: number;
  detail: unknown;
  /** The judge panel's record, when this score is one (parsed with the judge record schema). */
  judge: JudgeDetail | null;
}

/** One step of an episode replay: the turn and the world as it stood after it. */
export interface ReplayStep {
  turn: EpisodeTurn;
  /** Where each object is, who holds what, which furniture is open, after this turn (empty when the task is unknown). */
  world: string[];
}

/** A trial's record as its protocol wrote it, parsed with that protocol's schema. */
export type RecordView =
  | { protocol: 'mcq'; mcq: McqDetail }
  | { protocol: 'conversation'; story: StoryTurnDetail }
  | {
      protocol: 'episode';
      episode: EpisodeDetail;
      /** Each agent's private knowledge at the start, the public text, and the goal. */
      start: { text: string; goal: string; agents: Array<{ name: string; knows: string[] }>; world: string[] } | null;
      replay: ReplayStep[];
      failures: Array<{ mode: string; explanation: string; rounds: number[] }>;
    }
  | { protocol: 'director'; director: DirectorDetail }
  | { protocol: 'describe'; describe: DescribeDetail }
  | { protocol: 'other'; name: string; raw: unknown };

export interface TrialView {
  runId: string;
  subjectId: string;
  spec: string;
  suite: string;
  itemId: string;
  replicate: number;
  status: 'done' | 'failed';
  error: string | null;
  attempts: number;
  /** latencyMs: the interactive calls'; batchLatencyMs: the batch-answered calls' wait, submission to collection (0: none). */
  usage: { inputTokens: number; outputTokens: number; costUsd: number; latencyMs: number; batchLatencyMs: number };
  finishedAt: string;
  item: {
    category: string;
    ability: string | null;
    answer: string;
    originalLabel: string | null;
    /** Context, question and options of a multiple-choice item. */
    mcq: { context: string; question: string; options: string[] } | null;
  } | null;
  protocol: string;
  calls: StoredTranscript['calls'];
  record: RecordView | null;
  scores: ScoreView[];
}

export interface CompareView {
  subjects: string[];
  replicate: number;
  cells: PairedCell[];
  /** Per pair of the first two subjects chosen: items both right, both wrong, only A right, only B right. */
  items: Array<{ suite: string; itemId: string; category: string; values: Array<number | null> }>;
  counts: { bothRight: number; bothWrong: number; onlyA: number; onlyB: number; missing: number };
}

export interface ViewerInfo {
  location: string;
  backend: 'sqlite' | 'postgres';
  /** Changes when trials land: the page refreshes what it shows when it does. */
  stamp: string;
  static: boolean;
}

export type { TrialFacets, TrialListRow };
