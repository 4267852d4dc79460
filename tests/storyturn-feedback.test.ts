// Feedback effectiveness as CoMMET's Table 3 counts it (wrong answers followed by
// correctness-based feedback, the share whose next answer is right), apart from feedback chosen
// by which answer was given and from plain feedback: scripted participants' answers replayed
// through the protocol, the counts worked out by hand below; the same numbers from a store whose
// records predate the feedback kind (read from the stored items).

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import type { StoreRecord } from '../src/store/index.js';
import { runCli } from './helpers/run-cli.js';

const turn = (story: string, feedback: string, question: string, answer: string) => ({ story, feedback, question, image: '', answer });
const stories = [
  {
    id: 'ball',
    mental_state: 'belief',
    setting: 'text-complete',
    images: {},
    turns: [
      turn('Mia puts the ball in the box and leaves.', '', 'Where is the ball?', 'box'),
      turn('Mia comes back.', 'If right: Yes, the box.; If wrong: It is in the box.', 'Where will Mia look first?', 'box'),
    ],
  },
  {
    id: 'snack',
    mental_state: 'desire',
    setting: 'text-complete',
    images: {},
    turns: [
      turn('A cookie or an apple?', '', 'Which do you choose?', 'cookie; apple'),
      turn(
        'Sam likes the other one.',
        'If the previous answer is cookie: Sam skips the cookie.; If the previous answer is apple: Sam skips the apple.',
        'What does Sam choose?',
        'apple; cookie',
      ),
      turn(
        'Sam eats.',
        'If the previous answer is apple: Sam takes the apple.; If the previous answer is cookie: Sam takes the cookie.',
        'What is left for you?',
        'cookie; apple',
      ),
    ],
  },
  {
    id: 'door',
    mental_state: 'knowledge',
    setting: 'text-complete',
    images: {},
    turns: [
      turn('Grandma rings at the door.', '', 'Who is at the door?', 'Grandma'),
      turn('She comes in.', 'Grandma brought a cake.', 'What did Grandma bring?', 'cake'),
    ],
  },
];

// k1: ball wrong then right (correctness, recovered); snack right, wrong ("cookie" after
//     "cookie"), then "apple" as the cookie branch expects (answer-dependent, recovered); door
//     wrong then right (plain feedback, recovered).
// k2: ball wrong, wrong (correctness, not recovered); snack "apple", "apple" (wrong), "pear"
//     (answer-dependent, not recovered); door right: no event.
// k3: ball wrong then right (correctness, recovered); snack right throughout: no event; door
//     wrong, wrong (plain, not recovered).
const ANSWERS = `suite,item,participant,turn,answer
storyturn,ball,k1,1,bag
storyturn,ball,k1,2,box
storyturn,snack,k1,1,cookie
storyturn,snack,k1,2,cookie
storyturn,snack,k1,3,apple
storyturn,door,k1,1,Grandpa
storyturn,door,k1,2,cake
storyturn,ball,k2,1,bag
storyturn,ball,k2,2,bag
storyturn,snack,k2,1,apple
storyturn,snack,k2,2,apple
storyturn,snack,k2,3,pear
storyturn,door,k2,1,Grandma
storyturn,door,k2,2,pie
storyturn,ball,k3,1,bag
storyturn,ball,k3,2,box
storyturn,snack,k3,1,cookie
storyturn,snack,k3,2,apple
storyturn,snack,k3,3,cookie
storyturn,door,k3,1,Mom
storyturn,door,k3,2,pie
`;

type Rate = { k: number; n: number } | null;
const kn = (r: Rate) => (r ? [r.k, r.n] : null);

describe('feedback effectiveness by what the feedback depends on', () => {
  it("counts CoMMET's Table 3 (correctness-based) apart from answer-dependent and plain feedback, in text and JSON", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-feedback-'));
    writeFileSync(join(dir, 's.json'), JSON.stringify(stories));
    writeFileSync(join(dir, 'kids.csv'), ANSWERS);
    const run = (...args: string[]) => runCli(args, { cwd: dir });
    expect((await run('run', 'storyturn', '--data', 's.json', '--model', 'agent:oracle', '--run-id', 'fb', '--db', 'm.db')).code).toBe(0);
    const imported = await run('humans', 'import', '--run-id', 'fb', '--name', 'kids', '--answers', 'kids.csv', '--db', 'm.db');
    expect(imported.stdout).toMatch(/human:kids: 9 trial\(s\) from 3 participant\(s\)/);
    const json = await run('storyturn', 'results', '--run-id', 'fb', '--db', 'm.db', '--json');
    const kids = JSON.parse(json.stdout).find((m: { subject: string }) => m.subject === 'human:kids');
    const e = kids.feedbackEffectiveness;
    expect([kn(e.correctness), kn(e.answerDependent), kn(e.unconditional), kn(e.all)]).toEqual([
      [2, 3],
      [1, 2],
      [1, 2],
      [4, 7],
    ]);
    const oracle = JSON.parse(json.stdout).find((m: { subject: string }) => m.subject === 'agent:oracle');
    expect(oracle.feedbackEffectiveness).toEqual({ correctness: null, answerDependent: null, unconditional: null, all: null });

    const text = await run('storyturn', 'results', '--run-id', 'fb', '--db', 'm.db');
    const table = text.stdout.slice(text.stdout.indexOf('feedback effectiveness'));
    expect(table.split('\n')[1]).toMatch(
      /subject +mode +correctness-based \(Table 3\) % +cases +answer-dependent % +cases +plain feedback % +cases +all feedback % +cases/,
    );
    const pct = (r: { rate: number; lower: number; upper: number }) =>
      `${(r.rate * 100).toFixed(1)} [${(r.lower * 100).toFixed(1)}, ${(r.upper * 100).toFixed(1)}]`;
    const row = table.split('\n').find((l) => l.startsWith('human:kids'))!;
    expect(row.split(/ {2,}/).map((x) => x.trim())).toEqual([
      'human:kids',
      'text-only',
      pct(e.correctness),
      '3',
      pct(e.answerDependent),
      '2',
      pct(e.unconditional),
      '2',
      pct(e.all),
      '7',
    ]);
    expect(e.correctness.rate).toBeCloseTo(2 / 3, 12);

    // Records written before events named their kind: the kind comes from the stored items.
    const store = await openStore(join(dir, 'm.db'));
    const old = await openStore(join(dir, 'old.db'));
    let stripped = 0;
    async function* withoutKinds(): AsyncIterable<StoreRecord> {
      for await (const r of store.exportRecords()) {
        if (r.kind === 'trial' && r.trial.transcript) {
          const t = JSON.parse(r.trial.transcript);
          for (const ev of t.detail?.feedbackEvents ?? []) {
            delete ev.kind;
            stripped++;
          }
          yield { ...r, trial: { ...r.trial, transcript: JSON.stringify(t) } };
        } else yield r;
      }
    }
    await old.importRecords(withoutKinds());
    await store.close();
    await old.close();
    expect(stripped).toBe(7);
    const fromOld = JSON.parse((await run('storyturn', 'results', '--run-id', 'fb', '--db', 'old.db', '--json')).stdout);
    expect(fromOld.find((m: { subject: string }) => m.subject === 'human:kids').feedbackEffectiveness).toEqual(e);
  });
});
