// A bounded pool of workers pulling from a lazy source: at most `workers` tasks in flight, the
// source read only as fast as work finishes (so memory stays flat however long it is). The
// source may be asynchronous (a plan that leases its trials in the store as it goes: an async
// generator answers overlapping requests in order). The first error thrown by `work` (or the source) stops
// the pool and is rethrown once the tasks in flight end.

type Source<T> = Iterator<T> | Iterable<T> | AsyncIterator<T> | AsyncIterable<T>;

function iteratorOf<T>(source: Source<T>): Iterator<T> | AsyncIterator<T> {
  if (Symbol.asyncIterator in source) return (source as AsyncIterable<T>)[Symbol.asyncIterator]();
  if (Symbol.iterator in source) return (source as Iterable<T>)[Symbol.iterator]();
  return source as Iterator<T> | AsyncIterator<T>;
}

/** Run `work` on every value of `source`, `workers` at a time. */
export async function runPool<T>(source: Source<T>, workers: number, work: (value: T) => Promise<void>): Promise<void> {
  const it = iteratorOf(source);
  let failed = false;
  let error: unknown;
  await Promise.all(
    Array.from({ length: Math.max(1, workers) }, async () => {
      for (;;) {
        if (failed) return;
        let value: T;
        try {
          const n = await it.next();
          if (n.done) return;
          value = n.value;
        } catch (err) {
          if (!failed) error = err;
          failed = true;
          return;
        }
        try {
          await work(value);
        } catch (err) {
          if (!failed) error = err;
          failed = true;
        }
      }
    }),
  );
  if (failed) throw error;
}
