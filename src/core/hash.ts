/**
 * JSON with object keys sorted at every depth, so that equal values give equal strings
 * whatever order their keys were built in. `undefined` members are dropped, as JSON does.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
    return JSON.stringify(value) ?? 'null';
  }
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

/** node:crypto's one-shot hash, loaded on the first hash (a command that only reads loads no node:crypto). */
let oneShotHash: typeof import('node:crypto').hash | undefined;

/**
 * The SHA-256 of a string, in hex (or base64url). The one-shot hash (Node 20.12 on; engines asks
 * 20.18.1) costs a third of a Hash object's on short texts.
 */
export function sha256(text: string, encoding: 'hex' | 'base64url' = 'hex'): string {
  return (oneShotHash ??= process.getBuiltinModule('node:crypto').hash)('sha256', text, encoding);
}

/** Content hash of any JSON-able value. */
export function contentHash(value: unknown): string {
  return sha256(canonicalJson(value));
}
