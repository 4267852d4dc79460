// JSON text made piece by piece, the same bytes as JSON.stringify of the whole object, for the
// exports' writers (a line or sample a trial): values as JSON.stringify writes them inside an
// object, and names that repeat from trial to trial quoted once per change.

/** Thrown for a value JSON.stringify would leave out of an object (undefined, a function): the writer then stringifies the whole object. */
export class LeftOut extends Error {}
const LEFT_OUT = new LeftOut();

/** The JSON of small counts (most of a trial's numbers: tokens, calls, attempts), made once. */
const SMALL_INTS = Array.from({ length: 256 }, (_, i) => String(i));

/** The longest string quoted here (when none of its characters is escaped); a longer one by JSON.stringify. */
const SHORT_STRING = 64;

/**
 * A string's JSON: a short one (an answer, a time, a name) with only printable ASCII
 * characters other than '"' and '\\' is put between quotes as it is, which costs less than
 * the call into JSON.stringify that writes the same text.
 */
function quote(s: string): string {
  if (s.length > SHORT_STRING) return JSON.stringify(s);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return JSON.stringify(s);
  }
  return `"${s}"`;
}

/** An empty list's or plain object's JSON ('[]', '{}'; a trial's judges and judge scores most often); undefined for any other value. */
function empty(v: object): string | undefined {
  if ('toJSON' in v) return undefined;
  if (Array.isArray(v)) return v.length === 0 ? '[]' : undefined;
  if (Object.getPrototypeOf(v) !== Object.prototype) return undefined;
  for (const _ in v) return undefined;
  return '{}';
}

/** A value's JSON text as JSON.stringify writes it inside an object; LeftOut for one it leaves out. */
export function json(v: unknown): string {
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number') {
    // -0 is written 0, as JSON.stringify writes it.
    if ((v | 0) === v && v >= 0 && v < 256) return SMALL_INTS[v]!;
    return Number.isFinite(v) ? String(v) : 'null';
  }
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
  if (typeof v === 'object') {
    const e = empty(v);
    if (e !== undefined) return e;
  }
  const text = JSON.stringify(v) as string | undefined;
  if (text === undefined) throw LEFT_OUT;
  return text;
}

/** The JSON text of a field whose value repeats from trial to trial, made again only when it changes. */
export class Quoted {
  #value: unknown = Symbol('none');
  #text = '';
  of(v: unknown): string {
    if (v !== this.#value) {
      this.#text = json(v);
      this.#value = v;
    }
    return this.#text;
  }
}
