// Quick checks that a parsed JSON value is exactly what a zod object schema gives back
// unchanged: its keys all among the schema's, in the schema's order, each value of its type,
// the required ones present. A value that passes needs no parse (the parse would rebuild the
// same value, object by object); one that does not is parsed by the schema as before.

export type Check = (v: unknown) => boolean;

export const isString: Check = (v) => typeof v === 'string';
export const isNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v);
export const isInt: Check = (v) => Number.isSafeInteger(v);
export const isBoolean: Check = (v) => typeof v === 'boolean';
export const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
export const nullable =
  (check: Check): Check =>
  (v) =>
    v === null || check(v);

/**
 * An object whose keys are all among `fields`, in the order listed (the order the schema's
 * parse writes them), each passing its check; required fields present. Anything else: false.
 */
export function object(fields: Record<string, Check>, required: readonly string[] = []): Check {
  const names = Object.keys(fields);
  const checks = names.map((k) => fields[k]!);
  // Required fields are counted as the keys go by (no second look-up of each by name).
  const isRequired = names.map((k) => required.includes(k));
  const requiredCount = new Set(required).size;
  return (v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || Object.getPrototypeOf(v) !== Object.prototype) return false;
    const o = v as Record<string, unknown>;
    let at = 0;
    let found = 0;
    // for-in: the object's own keys in order (its prototype is Object.prototype), without an array of them.
    for (const k in o) {
      while (at < names.length && names[at] !== k) at++;
      if (at === names.length) return false;
      const x = o[k];
      if (x === undefined) continue;
      if (!checks[at]!(x)) return false;
      if (isRequired[at]) found++;
    }
    return found === requiredCount;
  };
}

export const arrayOf =
  (item: Check): Check =>
  (v) => {
    if (!Array.isArray(v)) return false;
    for (let i = 0; i < v.length; i++) if (!item(v[i])) return false;
    return true;
  };
