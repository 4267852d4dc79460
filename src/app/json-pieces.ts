// JSON text made piece by piece, the same bytes as JSON.stringify of the whole object, for the
// exports' writers (a line or sample a trial): values as JSON.stringify writes them inside an
// object, and names that repeat from trial to trial quoted once per change.

/** Thrown for a value JSON.stringify would leave out of an object (undefined, a function): the writer then stringifies the whole object. */
export class LeftOut extends Error {}
const LEFT_OUT = new LeftOut();

/** The JSON of small counts (most of a trial's numbers: tokens, calls, attempts), made once. */
const SMALL_INTS = Array.from({ length: 256 }, (_, i) => String(i));

/** A value's JSON text as JSON.stringify writes it inside an object; LeftOut for one it leaves out. */
export function json(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') {
    // -0 is written 0, as JSON.stringify writes it.
    if ((v | 0) === v && v >= 0 && v < 256) return SMALL_INTS[v]!;
    return Number.isFinite(v) ? String(v) : 'null';
  }
  if (v === null) return 'null';
  if (v === true) return 'true';
  if (v === false) return 'false';
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
