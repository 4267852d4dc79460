// Building DialToM items from dialogues: windows of 150-200 words (short tails merged), six
// retrospective and one prospective question per window, the easy set, counterfactual profiles
// and degradation variants, written in the released layout that the dialtom suites read; with
// options from a file and from a model behind a real local server; bad dialogues are named.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialogueWindows, DIALTOM_STATES, loadDialtom, NONE_OF_THE_ABOVE, readDialogues } from '../src/studies/dialtom/index.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { runCli } from './helpers/run-cli.js';

function dialogue(id: string, lines: number): { id: string; domain: string; turns: string[] } {
  return {
    id,
    domain: 'MI',
    turns: Array.from(
      { length: lines },
      (_, i) => `${i % 2 ? 'client' : 'counselor'}: this is line ${i} of dialogue ${id} with some more words in it`,
    ),
  };
}

describe('dialtom build', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.stop());

  it('windows of 150-200 words, a short tail merged into the window before', () => {
    const turns = Array.from({ length: 40 }, (_, i) => `a: ${'w '.repeat(i === 39 ? 5 : 19)}`.trim());
    const w = dialogueWindows(turns);
    const words = (r: [number, number]) => turns.slice(r[0], r[1]).join(' ').split(/\s+/).length;
    expect(w.slice(0, -1).every((r) => words(r) >= 150 && words(r) <= 200)).toBe(true);
    expect(w[w.length - 1]![1]).toBe(40);
    expect(() => readDialogues([{ id: 'x', domain: 'MI', turns: ['a: hi', 'b:  '] }], 'd.json')).toThrow(
      /d\.json dialogue 0 \(x\): turn 1 is empty/,
    );
  });

  it('builds from written options and from a model; the dialtom suites read the result', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dialtom-build-'));
    const dialogues = [dialogue('d1', 40), dialogue('d2', 40), dialogue('d3', 40)];
    writeFileSync(join(dir, 'dialogues.json'), JSON.stringify(dialogues));
    const byModel = await runCli(
      [
        'dialtom',
        'build',
        '--dialogues',
        'dialogues.json',
        '--out',
        'built',
        '--model',
        `openai-compatible:${server.url}/v1#writer`,
        '--db',
        'm.db',
      ],
      { cwd: dir },
    );
    expect(byModel.code).toBe(0);
    expect(byModel.stdout).toMatch(
      /built from 3 dialogue\(s\): (\d+) windows, \d+ retrospective questions, \d+ prospective, \d+ easy, \d+ counterfactual profiles/,
    );
    const retro = loadDialtom(join(dir, 'built'), 'retrospective');
    const windows = Number(/(\d+) windows/.exec(byModel.stdout)![1]);
    expect(retro.items).toHaveLength(windows * 6);
    expect(new Set(retro.items.map((i) => i.meta.state))).toEqual(new Set(DIALTOM_STATES));
    // The true state is one of four options, in a seeded place.
    for (const it of retro.items) expect(it.payload.options[it.payload.answerIndex]).toMatch(/^I truly hold this/);
    const pro = loadDialtom(join(dir, 'built'), 'prospective');
    expect(pro.items.length).toBeGreaterThan(0);
    const easy = loadDialtom(join(dir, 'built'), 'prospective-easy');
    // Easy distractors are other dialogues' own continuations.
    expect(easy.items.every((i) => i.payload.options.filter((o) => /dialogue d\d/.test(o)).length === 4)).toBe(true);
    const cf = loadDialtom(join(dir, 'built'), 'counterfactual');
    expect(cf.items.length).toBe(pro.items.length);
    expect(cf.items.every((i) => i.payload.options[i.payload.answerIndex] === NONE_OF_THE_ABOVE)).toBe(true);
    const history = loadDialtom(join(dir, 'built', 'degraded', 'history+states'), 'prospective');
    expect(history.items[0]!.payload.context).toMatch(/counselor: this is line 0/);
    // Written options from a file give the same layout.
    const table = JSON.parse(readFileSync(join(dir, 'built', 'dialtom', 'data', 'MI_retrospective_verified.json'), 'utf8')) as Array<{
      id: string;
      options: Record<string, Record<string, string>>;
      correct_option: Record<string, string>;
    }>;
    const options = Object.fromEntries(
      table.map((r) => [
        r.id,
        {
          true: Object.fromEntries(DIALTOM_STATES.map((s) => [s, r.options[s]![r.correct_option[s]!]])),
          wrong: Object.fromEntries(
            DIALTOM_STATES.map((s) => [
              s,
              Object.entries(r.options[s]!)
                .filter(([l]) => l !== r.correct_option[s])
                .map(([, t]) => t),
            ]),
          ),
          distractor_trajectories: ['x: a', 'x: b', 'x: c'],
        },
      ]),
    );
    writeFileSync(join(dir, 'options.json'), JSON.stringify(options));
    const byFile = await runCli(['dialtom', 'build', '--dialogues', 'dialogues.json', '--out', 'built2', '--options', 'options.json'], {
      cwd: dir,
    });
    expect(byFile.code).toBe(0);
    expect(loadDialtom(join(dir, 'built2'), 'retrospective').items).toHaveLength(windows * 6);
    const run = await runCli(
      ['run', 'dialtom-retrospective', '--data', join(dir, 'built2'), '--model', 'agent:answer-key', '--db', join(dir, 'r.db'), '--json'],
      { cwd: dir },
    );
    expect(JSON.parse(run.stdout)).toMatchObject({ done: windows * 6, failed: 0 });
  }, 60_000);
});
