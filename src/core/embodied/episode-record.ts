// What an episode leaves behind (stored as the trial's detail): the outcome, the literal
// probes, private goals and the transcript turn by turn. The protocol writes it; the analyses
// and the report read it.

export interface EpisodeTurn {
  round: number;
  agent: string;
  reply: string;
  action: string | null;
  ok: boolean;
  observation: string;
  /** Communicate: recipients and the atoms the message conveyed (described). */
  delivered?: string[];
  conveyed?: string[];
}

export interface ProbeResult {
  agent: string;
  formula: string;
  question: string;
  reply: string;
  answer: string | null;
  expected: 'yes' | 'no';
  correct: boolean;
}

export interface EpisodeDetail {
  taskId: string;
  category: 'cooperative' | 'mixed';
  kDepth: number;
  functional: boolean;
  /** The whole goal, K parts included (who knows what, as tracked), held at the end. */
  epistemic: boolean;
  rounds: number;
  probes: ProbeResult[];
  literal: { correct: number; total: number; allCorrect: boolean };
  privateGoals: Record<string, boolean>;
  malformed: number;
  turns: EpisodeTurn[];
}
