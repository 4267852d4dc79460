// Unpacking compact transcripts (transcript-packing.ts): a shape compiled once into a function
// that fills it with a row's values, the lists and blobs filled rows name, and the values that
// rows share frozen.

// core's errors file, not its index: the index loads every record schema (zod), which `report` does without.
import { MindscopeError } from '../../core/errors.js';

/** A long number's text (transcript-shapes.ts's doubleText: 8 bytes in base64url) as the number. */
function textDouble(t: unknown): number {
  if (typeof t !== 'string' || t.length !== 11) throw new MindscopeError('a packed transcript holds a malformed number');
  return Buffer.from(t, 'base64url').readDoubleBE(0);
}

/** A filler for one shape: the value it and a row's values describe (values[0] is the shape's reference). */
export type Filler = (values: readonly unknown[]) => unknown;

/**
 * splitShape's inverse for one shape, compiled once into a function that builds the value as
 * literals (the values' places are known from the shape): a row then costs its objects and
 * arrays, not a call per key. Keys are written as JSON string literals (valid JavaScript
 * strings whatever they hold); `__proto__` as a computed key, an own key as JSON.parse makes it.
 */
export function shapeFiller(shape: unknown): Filler {
  let n = 0;
  const expr = (s: unknown): string => {
    if (Array.isArray(s)) return `[${s.map(expr).join(',')}]`;
    if (s !== null && typeof s === 'object') {
      const fields = Object.keys(s).map((k) => {
        const key = JSON.stringify(k);
        return `${k === '__proto__' ? `[${key}]` : key}:${expr((s as Record<string, unknown>)[k])}`;
      });
      return `{${fields.join(',')}}`;
    }
    n++;
    return s === 1 ? `d(v[${n}])` : `v[${n}]`;
  };
  const body = expr(shape);
  const make = new Function('d', 'fail', `return (v) => { if (v.length !== ${n + 1}) fail(v.length - 1, ${n}); return ${body}; };`);
  return make(textDouble, (got: number, want: number) => {
    throw new MindscopeError(`a packed transcript holds ${got} values where its shape has ${want}`);
  }) as Filler;
}

/** A JSON value frozen through and through (shared by the transcripts that hold it). */
export function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === 'object') {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/** The shapes' references of packed rows' values. */
export function shapeRefs(rowValues: ReadonlyArray<unknown[] | undefined>): string[] {
  const out: string[] = [];
  for (const v of rowValues) if (v) out.push(v[0] as string);
  return out;
}

/** The blobs filled transcripts name: each call's message list (a reference where a list goes), then the detail's. */
export function listRefs(parsed: ReadonlyArray<Record<string, unknown> | undefined>): string[] {
  const first: string[] = [];
  for (const t of parsed) {
    if (!t) continue;
    for (const c of t.calls as Array<{ messages?: unknown }>) if (typeof c.messages === 'string') first.push(c.messages);
    for (const h of Object.values((t.blobs as Record<string, string>) ?? {})) first.push(h);
  }
  return first;
}
