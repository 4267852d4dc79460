// A stored JSON text read as json in PostgreSQL's SQL. A document that escapes a NUL or a lone
// UTF-16 surrogate (JSON.stringify writes them as \u0000 and \ud800) cannot be read by a plain
// cast: PostgreSQL refuses to turn such an escape into text, and with it every field of the
// document. The function mindscope_json (schema 19) reads those escapes as U+FFFD.

/** `text` (an SQL expression of a JSON text) as json, for `->` and `->>`. */
export const pgJson = (text: string): string => `mindscope_json(${text})`;
