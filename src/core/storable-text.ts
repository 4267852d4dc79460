// What the stores' text columns cannot hold. Both keep text as UTF-8, which has no lone UTF-16
// surrogate (one half of a pair alone): it reads back as U+FFFD. PostgreSQL's text holds no NUL
// (U+0000) at all. In an id either is worse than a changed character: two ids that differ only
// there would read back as one, their trials merged, or one backend would refuse what another
// took. Ids are refused with one, on every backend (stores, the runner), while longer texts
// (prompts, replies) are kept whole by escaping them in JSON.

/** Whether a string has no lone UTF-16 surrogate (String.prototype.isWellFormed, not in this TypeScript lib). */
export const isUtf8Safe = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** The first lone surrogate of a string: its index and code unit, or undefined where there is none. */
function loneSurrogate(text: string): { index: number; unit: string } | undefined {
  if (isUtf8Safe(text)) return undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
    } else if (c < 0xdc00 || c > 0xdfff) continue;
    return { index: i, unit: `U+${c.toString(16).toUpperCase()}` };
  }
  return undefined;
}

/**
 * Why an id (`field`, e.g. "item id") cannot be stored, or undefined where it can: one with a lone
 * surrogate would read back as another, and PostgreSQL refuses a NUL.
 */
export function unstorableId(field: string, id: string): string | undefined {
  const lone = loneSurrogate(id);
  if (lone)
    return `${field} ${JSON.stringify(id)} holds a lone UTF-16 surrogate (${lone.unit} at index ${lone.index}), which the store's UTF-8 text would read back as U+FFFD, merging it with other ids; give it a well-formed id`;
  return unstorableColumnText(field, id);
}

/**
 * Why a text kept in a column of its own (an item's answer or category) cannot be stored, or
 * undefined where it can: PostgreSQL's text holds no NUL (a lone surrogate there changes only a
 * copy; the item's body keeps it).
 */
export function unstorableColumnText(field: string, text: string): string | undefined {
  const nul = text.indexOf('\u0000');
  if (nul < 0) return undefined;
  return `${field} ${JSON.stringify(text)} holds a NUL (U+0000 at index ${nul}), which PostgreSQL's text cannot hold; remove it`;
}

/**
 * A free text (a failed trial's error message) as every backend keeps it alike: each lone
 * surrogate and NUL as U+FFFD, as SQLite's text would keep the one, where PostgreSQL would refuse
 * the other and with it the trial's record.
 */
export function storableText(text: string): string {
  const wellFormed = isUtf8Safe(text) ? text : (text as unknown as { toWellFormed(): string }).toWellFormed();
  return wellFormed.includes('\u0000') ? wellFormed.replaceAll('\u0000', '\ufffd') : wellFormed;
}
