// The names (trial_rows' runs, subjects, suites, item ids, scorers) this process knows are
// committed in `names`, with their numbers where known (SQLite). A write carries only the names
// not known, for its group to insert first; names are never deleted, so one known committed
// stays so. The memory is bounded (RecentMap): a name forgotten is inserted again (a no-op) with
// the next write that uses it.

import type { TrialKey } from '../../core/index.js';
import { RecentMap } from './recent-map.js';
import type { Write } from './trial-writes.js';

export class CommittedNames {
  /** Names known committed, recently used, with their numbers (SQLite; 0 where the number is not known). */
  readonly #ids = new RecentMap<string, number>();
  /**
   * The key names (run, subject, suite) of the last trial named, once all three are known
   * committed: a run's trials share them, so a trial then needs only its item id looked up.
   */
  #knownKey: { runId: string; subjectId: string; suite: string } | undefined;

  /** Puts on `write` the trial's names (and `more`: its scorer, a name or names) not known committed. */
  nameTrial(write: Write, k: TrialKey, more?: string | string[]): void {
    let names: string[] | undefined;
    const add = (n: string) => {
      if (!this.#ids.has(n)) (names ??= []).push(n);
    };
    const known = this.#knownKey;
    if (!known || known.runId !== k.runId || known.subjectId !== k.subjectId || known.suite !== k.suite) {
      add(k.runId);
      add(k.subjectId);
      add(k.suite);
      this.#knownKey = names ? undefined : { runId: k.runId, subjectId: k.subjectId, suite: k.suite };
    }
    add(k.itemId);
    if (typeof more === 'string') add(more);
    else if (more) for (const n of more) add(n);
    if (names) write.names = names;
  }

  /** Once `write` has committed, its names are known: later writes need not insert them. */
  committed(write: Write): void {
    const names = write.names;
    if (names) for (const n of names) if (!this.#ids.has(n)) this.#ids.set(n, 0);
  }

  /**
   * A SQLite group's numbers of names: those read in the group's transaction (`read`), else
   * those known. Names the group's rows share (a run, subject, suite, scorer) are looked up once.
   */
  groupIds(read: Map<string, number>): (name: string) => number | undefined {
    const shared = new Map<string, number>();
    return (name) => {
      let id = shared.get(name) ?? read.get(name);
      if (id === undefined) {
        id = this.#ids.get(name) || undefined;
        if (id !== undefined) shared.set(name, id);
      }
      return id;
    };
  }

  /** Once a group has committed: the numbers of names read in its transaction hold from now on. */
  learn(read: Map<string, number>): void {
    for (const [name, id] of read) this.#ids.set(name, id);
  }
}
