// The secrets this process holds (API keys, credentials in a base URL), so that a reply that
// echoes one (a proxy that quotes the request, a model asked to repeat its headers) is scrubbed
// before anything keeps it: transcripts, the call cache, exports, reports. Providers register
// their keys when they are built; replies are scrubbed as they are received.

/** Shorter values are not scrubbed from replies: they would match ordinary words. */
const MIN_SECRET_LENGTH = 6;
const REPLACEMENT = '[REDACTED]';

const secrets = new Set<string>();

/** Remember a secret of this process (an API key); empty and very short values are ignored. */
export function registerSecret(value: string | undefined): void {
  if (value && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
}

/** A copy of `value` with every registered secret in its strings replaced; the value itself when none occurs. */
export function scrubSecrets<T>(value: T): T {
  if (secrets.size === 0) return value;
  return scrub(value) as T;
}

function scrub(value: unknown): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REPLACEMENT);
    return out;
  }
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((v, i) => {
      const w = scrub(v);
      if (w !== v) (copy ??= [...value])[i] = w;
    });
    return copy ?? value;
  }
  if (value !== null && typeof value === 'object') {
    let copy: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(value)) {
      const w = scrub(v);
      if (w !== v) (copy ??= { ...(value as Record<string, unknown>) })[k] = w;
    }
    return copy ?? value;
  }
  return value;
}
