// Tiny and adaptive runs (`run --tiny K --bank B`, `run --adaptive --bank B`): only items chosen
// from a calibrated bank go through the ordinary runner (stored, cached, resumable, leased),
// and each subject's full-suite accuracy is estimated from its answers.
//   tiny      the items are chosen once, by a tinyBenchmarks strategy, from the bank, k and the
//             seed alone, so a resumed run asks the same items and skips the done ones.
//   adaptive  each subject and suite runs an adaptive test: a wave of items chosen by
//             information at the current ability, run, their stored scores recorded, and so on
//             until the target SE or the item budget (a multidimensional bank: the items expected
//             to shrink the accuracy's variance most, until the accuracy's SE reaches its target).
//             The choice depends only on the seed and the answers, so a resumed run replays the
//             stored answers (the runner skips their trials) and continues where the killed one
//             stopped, reaching the same result.

import {
  createAdaptiveSession,
  combineMatrices,
  defaultTinyStrategy,
  type IrtBank,
  selectTinyItems,
  type TinySet,
} from '../analysis/index.js';
import { ConfigError, type Item, type IrtRunSpec, type RunSpec, type Task } from '../core/index.js';
import { runEvaluation, subjectIdFor, type RunOptions, type RunSubject, type RunSummary } from '../runner/index.js';
import { readMatrixCsv, readMatrixParquet, type ResponseMatrix, type Store } from '../store/index.js';
import {
  addSummaries,
  checkBankAgainstTasks,
  type IrtSuiteResult,
  loadRunBank,
  storeIrtResult,
  subjectAnswers,
  suiteEstimate,
  taskWithItems,
} from './irt-run.js';

/** The runner options of an IRT run, less the tasks and subjects it varies. */
export type IrtRunBase = Omit<RunOptions, 'tasks' | 'subjects'>;

async function panelMatrix(files: readonly string[] | undefined): Promise<ResponseMatrix | undefined> {
  if (!files?.length) return undefined;
  const read = (f: string) =>
    f.endsWith('.parquet') ? readMatrixParquet(f, { anyCategory: true }) : readMatrixCsv(f, { anyCategory: true });
  return combineMatrices(await Promise.all(files.map(read)));
}

/** The tiny set a tiny run asks: chosen from the bank by strategy, k and seed, restricted to the run's suites. */
export async function tinySetFor(
  bank: IrtBank,
  irt: Extract<IrtRunSpec, { mode: 'tiny' }>,
  seed: number,
  suites: string[],
): Promise<TinySet> {
  const matrix = await panelMatrix(irt.matrix);
  const strategy = irt.strategy ?? defaultTinyStrategy(bank, matrix !== undefined);
  if (strategy === 'correctness' && !matrix)
    throw new ConfigError(
      "--tiny-strategy clustering (correctness) clusters the panel's answers: give the panel matrix with --tiny-matrix FILE",
    );
  const set = selectTinyItems(bank, { k: irt.k, strategy, seed, ...(matrix ? { matrix } : {}) });
  return { ...set, items: set.items.filter((i) => suites.includes(i.suite)) };
}

/** Run the items of a tiny set, then estimate each subject's accuracy per suite and category. */
export async function runTiny(
  spec: RunSpec,
  irt: Extract<IrtRunSpec, { mode: 'tiny' }>,
  base: IrtRunBase,
  tasks: Task[],
  subjects: RunSubject[],
): Promise<{ summary: RunSummary; irt: IrtSuiteResult[]; warnings: string[] }> {
  const bank = loadRunBank(irt);
  checkBankAgainstTasks(bank, tasks, irt.bank);
  const tiny = await tinySetFor(
    bank,
    irt,
    spec.seed,
    tasks.map((t) => t.suite),
  );
  const chosen = new Set(tiny.items.map((i) => `${i.suite}\u0000${i.id}`));
  const tinyTasks = tasks.map((t) =>
    taskWithItems(
      t,
      t.items.filter((item) => chosen.has(`${t.suite}\u0000${item.id}`)),
    ),
  );
  const summary = await runEvaluation({ ...base, tasks: tinyTasks, subjects });
  const store = base.calls.store;
  const results: IrtSuiteResult[] = [];
  for (const s of subjects) {
    const subjectId = subjectIdFor(s.model.spec, s.settings);
    const answers = await subjectAnswers(store, base.runId, subjectId);
    for (const t of tinyTasks) {
      const est = suiteEstimate(bank, t.suite, answers, tiny);
      const asked = t.items.map((i) => i.id);
      const r: IrtSuiteResult = {
        subject: s.model.spec,
        subjectId,
        suite: t.suite,
        mode: 'tiny',
        bankId: bank.bankId,
        suiteItems: tasks.find((x) => x.suite === t.suite)!.items.length,
        itemsAsked: asked.length,
        itemsAnswered: asked.filter((id) => answers.has(`${t.suite}\u0000${id}`)).length,
        strategy: tiny.strategy,
        k: irt.k,
        theta: est.theta,
        thetaSd: est.thetaSd,
        items: asked,
        accuracy: est.rows,
      };
      // A partial run's estimate is shown but not stored: the finished run's replaces it.
      if (r.itemsAnswered === r.itemsAsked) await storeIrtResult(store, base.runId, r);
      results.push(r);
    }
  }
  return { summary, irt: results, warnings: tiny.warnings };
}

/** The mean stored score over replicates of one item, or undefined when a replicate is not done. */
async function storedScore(store: Store, key: { runId: string; subjectId: string; suite: string; itemId: string }, replicates: number) {
  let sum = 0;
  for (let replicate = 0; replicate < replicates; replicate++) {
    const k = { ...key, replicate };
    if ((await store.trialStatus(k)) !== 'done') return undefined;
    const got = await store.transcript(k);
    if (!got) return undefined;
    sum += got.score.value;
  }
  return sum / replicates;
}

/** Run an adaptive test per subject and suite, a wave of items at a time, through the runner. */
export async function runAdaptive(
  spec: RunSpec,
  irt: Extract<IrtRunSpec, { mode: 'adaptive' }>,
  base: IrtRunBase,
  tasks: Task[],
  subjects: RunSubject[],
): Promise<{ summary: RunSummary; irt: IrtSuiteResult[]; warnings: string[] }> {
  const bank = loadRunBank(irt);
  checkBankAgainstTasks(bank, tasks, irt.bank);
  if (irt.accuracySe !== undefined && bank.model !== 'm2pl')
    throw new ConfigError(
      `--accuracy-se needs a multidimensional bank (irt calibrate --dims); ${irt.bank} is ${bank.model}: stop on ability with --se`,
    );
  const store = base.calls.store;
  const results: IrtSuiteResult[] = [];
  let summary: RunSummary | undefined;
  try {
    for (const s of subjects) {
      const subjectId = subjectIdFor(s.model.spec, s.settings);
      for (const task of tasks) {
        const session = createAdaptiveSession(bank, {
          suite: task.suite,
          targetSe: irt.se,
          accuracySe: irt.accuracySe,
          maxItems: irt.maxItems,
          minItems: irt.minItems,
          seed: spec.seed,
        });
        const byId = new Map(task.items.map((i) => [i.id, i]));
        const asked: Item[] = [];
        let complete = true;
        let stopped = false;
        for (let ids = session.nextWave(irt.wave); ids.length > 0 && !stopped; ids = session.nextWave(irt.wave)) {
          const carried = asked.length * spec.trials;
          asked.push(...ids.map((id) => byId.get(id)!));
          const r = await runEvaluation({ ...base, tasks: [taskWithItems(task, asked)], subjects: [s], keepModelsOpen: true });
          summary = addSummaries(summary, r, carried);
          for (const id of ids) {
            const v = await storedScore(store, { runId: base.runId, subjectId, suite: task.suite, itemId: id }, spec.trials);
            // A failed, aborted or unstarted trial (cost limit): stop here; the same command continues.
            if (v === undefined) {
              complete = false;
              stopped = true;
              break;
            }
            session.record(id, v);
          }
          if (r.aborted.length || r.costLimit) stopped = true;
        }
        const res = session.result();
        const r: IrtSuiteResult = {
          subject: s.model.spec,
          subjectId,
          suite: task.suite,
          mode: 'adaptive',
          bankId: bank.bankId,
          suiteItems: task.items.length,
          itemsAsked: asked.length,
          itemsAnswered: res.itemsUsed,
          theta: res.theta,
          thetaSd: res.se,
          ...(res.accuracySe !== undefined ? { accuracySe: res.accuracySe } : {}),
          stopReason: complete ? res.stopReason : null,
          items: res.items,
          accuracy: res.accuracy,
        };
        if (complete) await storeIrtResult(store, base.runId, r);
        results.push(r);
      }
    }
  } finally {
    for (const s of subjects) await s.model.close?.();
  }
  if (!summary) throw new ConfigError('the adaptive test asked no item (is the bank empty for these suites?)');
  return { summary, irt: results, warnings: [] };
}
