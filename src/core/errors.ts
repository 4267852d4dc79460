// Errors the user sees. Each names where the problem is (file and line, field, or model and
// HTTP status) so that the message alone is enough to fix the input.

/** The base of every error mindscope reports as one line ("mindscope: ..."); anything else is a bug. */
export class MindscopeError extends Error {
  override name = 'MindscopeError';
}

/** Bad input data: a file, a line, a field. */
export class InputError extends MindscopeError {
  override name = 'InputError';
  constructor(
    message: string,
    readonly file?: string,
    readonly line?: number,
  ) {
    super(file ? `${file}${line !== undefined ? `:${line}` : ''}: ${message}` : message);
  }
}

/** A bad command-line value or configuration. */
export class ConfigError extends MindscopeError {
  override name = 'ConfigError';
}

/** The shortest piece of a secret that is scrubbed on its own (a key cut where a snippet ends). */
const SECRET_PIECE_MIN = 6;

/**
 * Replace every occurrence of the given secrets in a text, and every piece of one at least six
 * characters long (a snippet that cut a key, as JSON.parse's error message does, shows a piece);
 * used on every error that may echo a request. Scans the whole text: give it a bounded one.
 */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    out = out.split(secret).join('[REDACTED]');
    if (secret.length > SECRET_PIECE_MIN) out = redactPieces(out, secret);
  }
  return out;
}

/** The text with each longest run that is also a piece of `secret` (SECRET_PIECE_MIN or more characters) replaced. */
function redactPieces(text: string, secret: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    let len = 0;
    if (i + SECRET_PIECE_MIN <= text.length && secret.includes(text.slice(i, i + SECRET_PIECE_MIN))) {
      len = SECRET_PIECE_MIN;
      while (i + len < text.length && secret.includes(text.slice(i, i + len + 1))) len++;
    }
    if (len) {
      out += '[REDACTED]';
      i += len;
    } else out += text[i++];
  }
  return out;
}
