// A bounded pool of workers pulling from a lazy source: at most `workers` tasks in flight, the
// source read only as fast as work finishes (so memory stays flat however long it is). The
// first error thrown by `work` stops the pool and is rethrown once the tasks in flight end.

/** Run `work` on every value of `source`, `workers` at a time. */
export async function runPool<T>(source: Iterator<T> | Iterable<T>, workers: number, work: (value: T) => Promise<void>): Promise<void> {
  const it = Symbol.iterator in source ? source[Symbol.iterator]() : source;
  let failed = false;
  let error: unknown;
  await Promise.all(
    Array.from({ length: Math.max(1, workers) }, async () => {
      for (;;) {
        if (failed) return;
        const next = it.next();
        if (next.done) return;
        try {
          await work(next.value);
        } catch (err) {
          if (!failed) error = err;
          failed = true;
        }
      }
    }),
  );
  if (failed) throw error;
}
