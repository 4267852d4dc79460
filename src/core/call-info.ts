// Side information a protocol attaches to a model call, for reference subjects (agent:*) that
// answer from the item's ground truth instead of reading the prompt. Real providers ignore it,
// and it is not part of the call-cache key.
//
// Each protocol creates its own typed key; `readInfo` hands the value back only to a reader
// holding the same key, so the type is known by construction and the core layer needs to know
// nothing of any protocol's shapes (an episode's world state, a Director scene, ...).

/** A typed key: `callInfoKey<EpisodeInfo>('episode')`. */
export interface CallInfoKey<T> {
  readonly name: string;
  /** Phantom field carrying the value type; never set. */
  readonly __type?: T;
}

/** A value paired with the key that types it. */
export interface CallInfo {
  readonly key: CallInfoKey<unknown>;
  readonly value: unknown;
}

/** Create a key for one kind of side information; `name` is the protocol's name by convention. */
export function callInfoKey<T>(name: string): CallInfoKey<T> {
  return { name };
}

/** Attach a value under its key. */
export function withInfo<T>(key: CallInfoKey<T>, value: T): CallInfo {
  return { key: key as CallInfoKey<unknown>, value };
}

/** The value stored under `key`, or undefined when the info is absent or was made with another key. */
export function readInfo<T>(info: CallInfo | undefined, key: CallInfoKey<T>): T | undefined {
  // Identity of the key object proves the value was stored as a T.
  return info !== undefined && info.key === key ? (info.value as T) : undefined;
}
