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

/** Replace every occurrence of the given secrets in a text; used on every error that may echo a request. */
export function redact(text: string, secrets: Iterable<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[REDACTED]');
  }
  return out;
}
