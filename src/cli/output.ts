// A command's result on stdout: its text for people, or with --json one JSON document (progress
// and warnings go to stderr either way).

/** Print `value` as JSON when `json`, else `text`. */
export function printResult(json: boolean | undefined, value: unknown, text: string): void {
  process.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : text.endsWith('\n') ? text : `${text}\n`);
}
