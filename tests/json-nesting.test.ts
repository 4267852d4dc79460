// JSON nested deeper than any data needs: every reader of user-given JSON and JSON lines refuses
// it with an error naming the file and line, where the value would otherwise end the command
// with "Maximum call stack size exceeded" (or a schema error naming nothing useful).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readIrtBank } from '../src/analysis/irt/irt-bank.js';
import { readInspectLog } from '../src/app/inspect-read.js';
import { InputError, MAX_JSON_DEPTH, parseJsonText, readJson, readJsonLines } from '../src/core/index.js';
import { loadConfig } from '../src/index.js';
import { loadRubric, parseRubric } from '../src/judges/index.js';
import { loadAnchors } from '../src/judges/validation.js';
import { loadMcqTemplate } from '../src/protocols/mcq/template.js';
import { runCli } from './helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-json-depth-'));
const DEEP = 100_000;
/** A list nested `n` deep. */
const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const TOO_DEEP = new RegExp(`lists and objects nest more than ${MAX_JSON_DEPTH} levels deep \\(at column (\\d+)\\)`);

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** How deep a parsed value nests (the value is shallow enough to walk). */
function depthOf(v: unknown): number {
  if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(depthOf));
  if (v && typeof v === 'object') return 1 + Math.max(0, ...Object.values(v).map(depthOf));
  return 0;
}

describe('JSON nested too deep', () => {
  it('the CLI names the file and line of a JSON line nested 100,000 deep', async () => {
    const story = { id: 's1', mental_state: 'belief', turns: [{ story: 'Sally.', question: 'Where?', answer: 'basket', feedback: '' }] };
    const file = write(
      'stories.jsonl',
      `${JSON.stringify(story)}\n${JSON.stringify({ ...story, id: 's2' }).replace('"feedback":""', `"feedback":${nested(DEEP)}`)}\n`,
    );
    const r = await runCli(['items', 'storyturn', '--data', file]);
    expect(r.stderr).toMatch(
      new RegExp(`^mindscope: ${file}:2: ${TOO_DEEP.source}; no data needs that depth, so the file is not read\\n$`),
    );
    // The column is where the 513th level opens: three are open before "feedback" (the story, its turns, the turn).
    const column = Number(TOO_DEEP.exec(r.stderr)![1]);
    const feedbackAt = JSON.stringify({ ...story, id: 's2' }).indexOf('"feedback":') + '"feedback":'.length;
    expect(column).toBe(feedbackAt + (MAX_JSON_DEPTH + 1 - 3));
    expect(r.code).toBe(1);
  });

  it('every reader of user-given JSON names the file and the line', async () => {
    // A JSON file: the line on which the nesting goes too deep.
    const json = write('data.json', `[\n  {"id": "a"},\n  {"id": "b", "x": ${nested(DEEP)}}\n]\n`);
    expect(() => readJson(json)).toThrow(new RegExp(`^${json}:3: ${TOO_DEEP.source}`));
    const lines = write('data.jsonl', `{"id": "a"}\n\n{"id": "b", "x": ${nested(DEEP)}}\n`);
    expect(() => readJsonLines(lines)).toThrow(new RegExp(`^${lines}:3: ${TOO_DEEP.source}`));
    const config = write('study.json', `{\n"suites": ${nested(DEEP)}\n}`);
    await expect(loadConfig(config)).rejects.toThrow(new RegExp(`^${config}:2: ${TOO_DEEP.source}`));
    const rubric = write('rubric.json', `{"name": "r", "prompt": ${nested(DEEP)}}`);
    expect(() => parseRubric(`{"name": "r", "prompt": ${nested(DEEP)}}`, rubric)).toThrow(new RegExp(`^${rubric}:1: ${TOO_DEEP.source}`));
    const anchors = write('anchors.jsonl', `{"text": "ok", "expected": {}}\n{"text": ${nested(DEEP)}}\n`);
    expect(() => loadAnchors(anchors, loadRubric('commet-open-answer'))).toThrow(new RegExp(`^${anchors}:2: ${TOO_DEEP.source}`));
    const bank = write('bank.json', `{"items": ${nested(DEEP)}}`);
    expect(() => readIrtBank(bank)).toThrow(new RegExp(`^${bank}:1: ${TOO_DEEP.source}`));
    const template = write('template.json', `{"user": "{question}", "meta": ${nested(DEEP)}}`);
    expect(() => loadMcqTemplate(template)).toThrow(new RegExp(`^${template}:1: ${TOO_DEEP.source}`));
    const log = write('log.json', `{"version": 2, "eval": ${nested(DEEP)}}`);
    expect(() => readInspectLog(log)).toThrow(new RegExp(`^${log}:1: ${TOO_DEEP.source}`));
    const tasks = write('tasks.json', nested(DEEP));
    const r = await runCli(['embodied', 'verify', tasks]);
    expect(r.stderr).toMatch(new RegExp(`^mindscope: ${tasks}:1: ${TOO_DEEP.source}`));
  });

  it('reads what JSON.parse reads up to the limit, and refuses exactly what nests deeper (strings holding brackets, quotes and escapes included)', () => {
    const wrapped = fc.record({
      inner: fc.jsonValue({ maxDepth: 4 }),
      wrappers: fc.array(fc.constantFrom('list', 'object'), { minLength: MAX_JSON_DEPTH - 8, maxLength: MAX_JSON_DEPTH + 2 }),
      key: fc.string({ unit: fc.constantFrom('[', ']', '{', '}', '"', '\\', 'a', ' ') }),
      indent: fc.constantFrom(0, 1),
    });
    fc.assert(
      fc.property(wrapped, ({ inner, wrappers, key, indent }) => {
        let value: unknown = inner;
        for (const w of wrappers) value = w === 'list' ? [value] : { [key]: value };
        const text = JSON.stringify(value, null, indent);
        const depth = wrappers.length + depthOf(inner);
        if (depth <= MAX_JSON_DEPTH) expect(parseJsonText(text, 'f.json')).toEqual(JSON.parse(text));
        else expect(() => parseJsonText(text, 'f.json')).toThrow(TOO_DEEP);
      }),
      { seed: 42, numRuns: 200 },
    );
  });

  it('a syntax error still names the line', () => {
    expect(() => parseJsonText('{\n"a": 1,\n}', 'f.json')).toThrow(InputError);
    expect(() => parseJsonText('{\n"a": 1,\n}', 'f.json')).toThrow(/^f\.json:3: malformed JSON: /);
    expect(() => parseJsonText('{"a": }', 'f.jsonl', 7)).toThrow(/^f\.jsonl:7: malformed JSON line: /);
  });
});
