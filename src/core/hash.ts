import { hash } from 'node:crypto';

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

/**
 * The SHA-256 of a string, in hex (or base64url). The one-shot hash (Node 20.12 on; engines asks
 * 20.18.1) costs a third of a Hash object's on short texts.
 */
export function sha256(text: string, encoding: 'hex' | 'base64url' = 'hex'): string {
  return hash('sha256', text, encoding);
}

/** Content hash of any JSON-able value. */
export function contentHash(value: unknown): string {
  return sha256(canonicalJson(value));
}
