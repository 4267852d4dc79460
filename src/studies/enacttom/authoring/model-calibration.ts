// Calibration by models, as the EnactToM paper does it (Section 4.3): each task is played by a
// model team twice, once as written (secrets private) and once with every secret revealed to
// every agent (protocol/secrets-revealed.ts), each condition a stored run. Per task and team: the
// passes in each condition; a team that never passes a task even with every secret revealed
// fails it for embodied reasons, and a task no team passes with every secret revealed is
// flagged as a bad task (the paper rejects it: its scores would not reflect theory of mind).

import { ConfigError } from '../../../core/index.js';
import type { Store } from '../../../store/index.js';
import { storedEpisodes, type StoredEpisode } from '../analysis/index.js';

/** Passes out of runs. */
export interface PassCount {
  passed: number;
  runs: number;
}

export interface TeamCalibration {
  subject: string;
  /** Secrets private (the task as written). */
  private: PassCount;
  /** Every secret revealed to every agent. */
  revealed: PassCount;
  /** Run with secrets revealed and never passed: an embodied failure for this team. */
  failsRevealed: boolean;
}

export interface TaskCalibration {
  taskId: string;
  teams: TeamCalibration[];
  /** No team passed the task with every secret revealed: a bad task (unsolvable by the models even with full knowledge). */
  flagged: boolean;
}

export interface ModelCalibration {
  privateRunId: string;
  revealedRunId: string;
  tasks: TaskCalibration[];
  /** Per team: tasks, pass rates per condition (over runs), tasks it fails with every secret revealed. */
  teams: Array<{ subject: string; tasks: number; privateRate: number; revealedRate: number; failsRevealed: number }>;
  flagged: string[];
}

function counts(episodes: StoredEpisode[]): Map<string, Map<string, PassCount>> {
  const out = new Map<string, Map<string, PassCount>>();
  for (const e of episodes) {
    const bySubject = out.get(e.taskId) ?? new Map<string, PassCount>();
    const c = bySubject.get(e.subject) ?? { passed: 0, runs: 0 };
    c.runs++;
    if (e.functional) c.passed++;
    bySubject.set(e.subject, c);
    out.set(e.taskId, bySubject);
  }
  return out;
}

/** Join a run with secrets private and a run with every secret revealed, task by task and team by team. */
export async function modelCalibration(store: Store, privateRunId: string, revealedRunId: string): Promise<ModelCalibration> {
  const priv = await storedEpisodes(store, privateRunId);
  const rev = await storedEpisodes(store, revealedRunId);
  if (rev.length === 0) throw new ConfigError(`run ${revealedRunId} has no embodied episodes`);
  if (rev.some((e) => e.detail.condition !== 'secrets-revealed'))
    throw new ConfigError(`run ${revealedRunId} was not run with every secret revealed (options.episode.secrets: revealed)`);
  if (priv.some((e) => e.detail.condition === 'secrets-revealed'))
    throw new ConfigError(`run ${privateRunId} was run with every secret revealed; give the run with secrets private first`);
  const p = counts(priv);
  const r = counts(rev);
  const none: PassCount = { passed: 0, runs: 0 };
  const tasks: TaskCalibration[] = [...new Set([...p.keys(), ...r.keys()])].sort().map((taskId) => {
    const subjects = [...new Set([...(p.get(taskId)?.keys() ?? []), ...(r.get(taskId)?.keys() ?? [])])].sort();
    const teams = subjects.map((subject) => {
      const revealed = r.get(taskId)?.get(subject) ?? none;
      return {
        subject,
        private: p.get(taskId)?.get(subject) ?? none,
        revealed,
        failsRevealed: revealed.runs > 0 && revealed.passed === 0,
      };
    });
    const tried = teams.filter((t) => t.revealed.runs > 0);
    return { taskId, teams, flagged: tried.length > 0 && tried.every((t) => t.failsRevealed) };
  });
  const subjects = [...new Set(tasks.flatMap((t) => t.teams.map((x) => x.subject)))].sort();
  const rate = (xs: PassCount[]) => {
    const runs = xs.reduce((a, x) => a + x.runs, 0);
    return runs ? xs.reduce((a, x) => a + x.passed, 0) / runs : Number.NaN;
  };
  return {
    privateRunId,
    revealedRunId,
    tasks,
    teams: subjects.map((subject) => {
      const mine = tasks.flatMap((t) => t.teams.filter((x) => x.subject === subject));
      return {
        subject,
        tasks: mine.length,
        privateRate: rate(mine.map((x) => x.private)),
        revealedRate: rate(mine.map((x) => x.revealed)),
        failsRevealed: mine.filter((x) => x.failsRevealed).length,
      };
    }),
    flagged: tasks.filter((t) => t.flagged).map((t) => t.taskId),
  };
}
