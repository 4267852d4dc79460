// A transcript's shape: its JSON with the values taken out (splitShape), which many trials
// share and the store keeps once, beside the values that differ. shapeTree and fitShape take a
// transcript of the same shape as the last one apart without making its shape text again.
// Used by the packer (transcript-packing.ts); transcript-filling.ts puts values back.

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

const quotedKeys = new Map<string, string>();
/** A key as JSON text (transcripts use few keys: remembered). */
function quoted(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k);
    if (quotedKeys.size < 10_000) quotedKeys.set(k, q);
  }
  return q;
}

/**
 * A JSON value's shape: its JSON text with each value (anything but a plain object or array)
 * written 0 and pushed onto `values`, in order (a long number written 1, its bytes pushed:
 * LONG_NUMBER_CHARS). Keys JSON leaves out are left out.
 */
export function splitShape(v: unknown, values: unknown[]): string {
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + splitShape(v[i], values);
    return `${s}]`;
  }
  if (v !== null && typeof v === 'object' && isPlainObject(v)) {
    let s = '{';
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
      s += `${s.length > 1 ? ',' : ''}${quoted(k)}:${splitShape(x, values)}`;
    }
    return `${s}}`;
  }
  if (typeof v === 'number' && !Number.isInteger(v) && Number.isFinite(v) && JSON.stringify(v).length > LONG_NUMBER_CHARS) {
    values.push(doubleText(v));
    return '1';
  }
  values.push(v);
  return '0';
}

/** A shape as splitShape walks it: a value (0), a long number (1), an array's parts, an object's kept keys and their parts. */
export type ShapeTree = 0 | 1 | ShapeTree[] | { keys: string[]; parts: ShapeTree[] };

/** A number splitShape keeps as its bytes (1 in its shape). */
const isLongNumber = (v: unknown): v is number =>
  typeof v === 'number' && !Number.isInteger(v) && Number.isFinite(v) && JSON.stringify(v).length > LONG_NUMBER_CHARS;

/** Whether splitShape keeps an object's key (JSON leaves the others out). */
const kept = (x: unknown): boolean => x !== undefined && typeof x !== 'function' && typeof x !== 'symbol';

/** splitShape's walk of a value as a tree (no text). */
export function shapeTree(v: unknown): ShapeTree {
  if (Array.isArray(v)) return v.map(shapeTree);
  if (v !== null && typeof v === 'object' && isPlainObject(v)) {
    const keys: string[] = [];
    const parts: ShapeTree[] = [];
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (!kept(x)) continue;
      keys.push(k);
      parts.push(shapeTree(x));
    }
    return { keys, parts };
  }
  return isLongNumber(v) ? 1 : 0;
}

/**
 * Push v's values onto `values` as splitShape would, when v has the shape `t` (splitShape would
 * write the same text): false as soon as it differs, `values` then holding some of them.
 */
export function fitShape(v: unknown, t: ShapeTree, values: unknown[]): boolean {
  if (t === 0) {
    if (v !== null && typeof v === 'object' && (Array.isArray(v) || isPlainObject(v))) return false;
    if (isLongNumber(v)) return false;
    values.push(v);
    return true;
  }
  if (t === 1) {
    if (!isLongNumber(v)) return false;
    values.push(doubleText(v));
    return true;
  }
  if (Array.isArray(t)) {
    if (!Array.isArray(v) || v.length !== t.length) return false;
    for (let i = 0; i < t.length; i++) if (!fitShape(v[i], t[i]!, values)) return false;
    return true;
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v) || !isPlainObject(v)) return false;
  const { keys, parts } = t;
  let j = 0;
  for (const k of Object.keys(v)) {
    const x = (v as Record<string, unknown>)[k];
    if (!kept(x)) continue;
    if (keys[j] !== k || !fitShape(x, parts[j]!, values)) return false;
    j++;
  }
  return j === keys.length;
}

/**
 * A number whose JSON is longer than this (a latency measured to the last bit of a double, in
 * 15 to 18 digits) is kept as its 8 bytes in base64url, 11 characters: its shape holds 1 where
 * other values have 0 (schema 17; shapes written before hold no 1).
 */
const LONG_NUMBER_CHARS = 13;

const doubleBytes = Buffer.alloc(8);

/** A double's 8 bytes as base64url text. */
function doubleText(v: number): string {
  doubleBytes.writeDoubleBE(v);
  return doubleBytes.toString('base64url');
}
