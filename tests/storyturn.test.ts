// StoryTurn conversations (CoMMET): the format and its validation, loaders (JSON, JSONL, a
// table of turns with a column mapping), the generated suite run with reference agents (every
// metric, feedback branches both ways), images as image parts over a real local server, and the
// drawn picture.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../src/store/index.js';
import { openStore, scoreRun } from '../src/index.js';
import {
  applePicture,
  expectedAnswers,
  generateStoryTurns,
  parseFeedback,
  readStoryTurns,
  storedStories,
  storyJudgeScorer,
  storyTurnMetrics,
  validateStoryTurn,
  type StoryTurnStory,
} from '../src/studies/storyturn/index.js';
import { evaluate } from './helpers/evaluate.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { runCli } from './helpers/run-cli.js';

const base = (): StoryTurnStory => ({
  id: 'd1',
  state: 'desire',
  setting: 'text-complete',
  status: 'approved',
  images: {},
  turns: [
    { story: 'A cookie or an apple?', feedback: '', question: 'Which do you choose?', image: '', answer: 'cookie; apple' },
    {
      story: 'Sam likes something else.',
      feedback: 'If the previous answer is cookie: Sam skips the cookie.; If the previous answer is apple: Sam skips the apple.',
      question: 'What does Sam choose?',
      image: '',
      answer: 'apple; cookie',
    },
  ],
});

describe('StoryTurn format', () => {
  it('reads feedback branches and selects the expected answer by the previous answer', () => {
    const s = base();
    expect(parseFeedback(s.turns[1]!.feedback)).toEqual({
      kind: 'previous',
      branches: [
        { answer: 'cookie', text: 'Sam skips the cookie.' },
        { answer: 'apple', text: 'Sam skips the apple.' },
      ],
    });
    expect(parseFeedback('If right: Well done.; If wrong: Look again.')).toEqual({
      kind: 'correctness',
      right: 'Well done.',
      wrong: 'Look again.',
    });
    expect(expectedAnswers(s, 0, undefined)).toEqual(['cookie', 'apple']);
    expect(expectedAnswers(s, 1, 'I would take the cookie.\nAnswer: cookie')).toEqual(['apple']);
    expect(expectedAnswers(s, 1, 'Answer: apple')).toEqual(['cookie']);
  });

  it('rejects a branch without an answer, feedback naming an unknown option, a missing image', () => {
    const noBranch = base();
    noBranch.turns[1]!.answer = 'apple';
    expect(() => validateStoryTurn(noBranch, 'f.json')).toThrow(
      /f\.json \(d1\) turn 2: the feedback has 2 branch\(es\) but the answer has 1/,
    );
    const unknown = base();
    unknown.turns[1]!.feedback = 'If the previous answer is pear: no.; If the previous answer is apple: yes.';
    expect(() => validateStoryTurn(unknown, 'f.json')).toThrow(
      /names the option "pear", which is not an answer to the previous question \(cookie; apple\)/,
    );
    const image = base();
    image.turns[0]!.image = 'img09';
    expect(() => validateStoryTurn(image, 'f.json')).toThrow(/turn 1: the image "img09" is not among the story's images/);
    const first = base();
    first.turns[0]!.feedback = 'If right: yes; If wrong: no';
    expect(() => validateStoryTurn(first, 'f.json')).toThrow(/turn 1: the first turn has no previous answer/);
  });

  it('loads JSON stories and a CSV table of turns with a column mapping; generated stories await review', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-'));
    writeFileSync(
      join(dir, 's.json'),
      JSON.stringify([
        { ...base(), mental_state: 'Desires' },
        { ...base(), id: 'd2', status: 'generated' },
      ]),
    );
    const stories = await readStoryTurns(join(dir, 's.json'));
    expect(stories.map((s) => [s.id, s.state, s.status])).toEqual([
      ['d1', 'desire', 'approved'],
      ['d2', 'desire', 'generated'],
    ]);
    // Image paths must name real images inside the data folder (tests/load-hardening.test.ts).
    writeFileSync(join(dir, 'apple.png'), Buffer.from(applePicture('big').split(',')[1]!, 'base64'));
    writeFileSync(
      join(dir, 't.csv'),
      'sid,n,text,fb,q,img,ans,ms,kind,path\nx1,2,Grandpa asks.,If right: yes.; If wrong: no.,Which one?,img01,medium,Percepts,image-dependent,apple.png\nx1,1,Three apples.,,Which is biggest?,img01,big,Percepts,image-dependent,apple.png\n',
    );
    const [t] = await readStoryTurns(join(dir, 't.csv'), {
      storyId: 'sid',
      turn: 'n',
      story: 'text',
      feedback: 'fb',
      question: 'q',
      image: 'img',
      answer: 'ans',
      state: 'ms',
      setting: 'kind',
      imagePath: 'path',
    });
    expect(t!.turns.map((x) => x.answer)).toEqual(['big', 'medium']);
    expect(t).toMatchObject({
      id: 'x1',
      state: 'percept',
      setting: 'image-dependent',
      images: { img01: applePicture('big') },
      imageFiles: { img01: 'apple.png' },
    });
  });
});

describe('generated StoryTurns with reference agents', () => {
  it('produces every metric; feedback branches are exercised both ways', async () => {
    const stories = generateStoryTurns({ count: 12, seed: 1 });
    expect(new Set(stories.map((s) => s.state))).toEqual(new Set(['belief', 'percept', 'desire', 'non-literal']));
    for (const s of stories) validateStoryTurn(s, 'generated');
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-run-'));
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({
        store,
        suites: ['generated-storyturn'],
        limit: 24,
        models: ['agent:oracle', 'agent:random'],
        trials: 2,
        runId: 'st',
      });
      const stored = await storedStories(store, 'st');
      const m = storyTurnMetrics(stored);
      const oracle = m.find((x) => x.subject === 'agent:oracle')!;
      const random = m.find((x) => x.subject === 'agent:random')!;
      expect(oracle.stories).toMatchObject({ rate: 1, n: 48 });
      expect(oracle.feedbackEffectiveness.all).toBeNull();
      expect(random.stories.rate).toBeLessThan(0.5);
      // The generated stories' feedback is correctness-based or answer-dependent: both kinds occur, and together make all.
      const fe = random.feedbackEffectiveness;
      expect(fe.all!.n).toBeGreaterThan(5);
      expect(fe.correctness!.n).toBeGreaterThan(0);
      expect(fe.correctness!.n + (fe.answerDependent?.n ?? 0)).toBe(fe.all!.n);
      expect(fe.unconditional).toBeNull();
      expect(random.byState.map((s) => s.state)).toEqual(['belief', 'desire', 'non-literal', 'percept']);
      expect(random.bySetting.map((s) => s.setting)).toEqual(['image-dependent', 'text-complete']);
      // Both kinds of feedback were shown, and both branches of the desire stories were taken.
      const rows = (await collect(store.responses('st'))).filter((r) => r.spec === 'agent:random');
      const details = await Promise.all(
        rows.map(
          async (r) =>
            (await store.transcript({ runId: 'st', subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate }))!
              .transcript as { detail: { storyId: string; turns: Array<{ feedbackShown: string; expected: string[] }> } },
        ),
      );
      const shown = details.flatMap((d) => d.detail.turns.map((t) => t.feedbackShown)).filter(Boolean);
      expect(shown.some((f) => /^(Yes|Right)/.test(f))).toBe(true);
      expect(shown.some((f) => /^(Actually|Look|Dad forgot|At first)/.test(f))).toBe(true);
      const desireSecond = details.filter((d) => d.detail.storyId.includes('desire')).map((d) => d.detail.turns[1]!.feedbackShown);
      expect(new Set(desireSecond.map((f) => /skips|not want the (\w+)/.exec(f)?.[1])).size).toBeGreaterThan(1);
    } finally {
      await store.close();
    }
  });

  it('draws the same picture for the same scene, as a PNG', () => {
    const a = applePicture('big');
    expect(a).toBe(applePicture('big'));
    expect(a).not.toBe(applePicture('small'));
    expect(Buffer.from(a.split(',')[1]!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('StoryTurn images over a real local server', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.stop());

  it('sends the image-dependent turns with their picture as an image part', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-img-'));
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({
        store,
        suites: ['generated-storyturn'],
        limit: 6,
        models: [`openai-compatible:${server.url}/v1#ok`],
        images: true,
        runId: 'img',
      });
      const bodies = (await server.stats()).bodies.map((b) => b.body);
      const withImage = bodies.filter((b) => JSON.stringify(b).includes('"image_url"'));
      expect(withImage.length).toBeGreaterThan(0);
      expect(JSON.stringify(withImage[0])).toMatch(/data:image\/png;base64,iVBOR/);
      const [m] = storyTurnMetrics(await storedStories(store, 'img'));
      expect(m).toMatchObject({ mode: 'text+image' });
    } finally {
      await store.close();
    }
  });

  it('reads open turns from the judge panel when the run was judged, and says so (issue 15, defect 4)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-judged-'));
    const store = await openStore(join(dir, 'm.db'));
    const rubric = join(dir, 'open.yaml');
    writeFileSync(
      rubric,
      'name: open\nprompt: "Question: {question}\\nResponse: {response}\\nExpected: {expected}"\nfields:\n  - { name: score, min: 0, max: 5 }\n',
    );
    try {
      // The server's model answers every turn with the same canned line, so every open turn is wrong by exact match.
      await evaluate({ store, suites: ['generated-storyturn'], limit: 24, models: [`openai-compatible:${server.url}/v1#ok`], runId: 'j' });
      expect(await storyJudgeScorer(store, 'j')).toBeUndefined();
      const exact = storyTurnMetrics(await storedStories(store, 'j'))[0]!;
      expect(exact.scorer).toBe('exact');
      // A lenient judge rates every open answer right: open turns the exact match failed now count.
      await scoreRun({ store, runId: 'j', rubricPath: rubric, judges: [`openai-compatible:${server.url}/v1#judge-lenient`] });
      const scorer = await storyJudgeScorer(store, 'j');
      expect(scorer).toBe('judge:open');
      const judged = storyTurnMetrics(await storedStories(store, 'j', scorer))[0]!;
      expect(judged.scorer).toBe('judge:open (open turns) + exact (closed turns)');
      expect(judged.questions.k).toBeGreaterThan(exact.questions.k);
      expect(judged.stories.rate).toBeGreaterThanOrEqual(exact.stories.rate);
      await expect(storyJudgeScorer(store, 'j', 'other')).rejects.toThrow(/was not scored with rubric "other"/);
    } finally {
      await store.close();
    }
  });
});

describe('StoryTurn authoring and review', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.stop());

  it('writes stories with a model, rejects invalid replies with the reason, and runs only approved ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-author-'));
    writeFileSync(join(dir, 'example.json'), JSON.stringify([{ ...base(), mental_state: 'desire' }]));
    const run = (...args: string[]) => runCli(args, { cwd: dir });
    const good = await run(
      'storyturn',
      'generate',
      '--example',
      'example.json',
      '--aspect',
      'diverse desires',
      '--model',
      `openai-compatible:${server.url}/v1#storyteller`,
      '--n',
      '2',
      '--out',
      'new.json',
    );
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/wrote 2 generated StoryTurn\(s\) to new\.json; 0 reply\(ies\) rejected/);
    const bad = await run(
      'storyturn',
      'generate',
      '--example',
      'example.json',
      '--aspect',
      'diverse desires',
      '--model',
      `openai-compatible:${server.url}/v1#sloppy`,
      '--n',
      '1',
      '--out',
      'new.json',
    );
    expect(bad.stdout).toMatch(/diverse-desires-001: .*names the option "milk", which is not an answer to the previous question/);
    expect((await readStoryTurns(join(dir, 'new.json'))).map((s) => s.status)).toEqual(['generated', 'generated']);
    for (const reviewer of ['ana', 'ben', 'cy'])
      await run('storyturn', 'review', 'new.json', '--id', 'diverse-desires-001', '--reviewer', reviewer, '--approve');
    expect((await run('storyturn', 'reviews', 'new.json')).stdout).toMatch(/diverse-desires-001 +approved +approved by ana, ben, cy/);
    expect(
      (
        await run(
          'storyturn',
          'review',
          'new.json',
          '--id',
          'diverse-desires-002',
          '--reviewer',
          'ana',
          '--reject',
          'answer-revealed',
          '--note',
          'says what Ana wants',
        )
      ).stdout,
    ).toMatch(/rejected \(rejected by ana: answer-revealed \(says what Ana wants\)\)/);
    expect(
      (await run('storyturn', 'review', 'new.json', '--id', 'diverse-desires-002', '--reviewer', 'ana', '--reject', 'boring')).stderr,
    ).toMatch(/unknown error type "boring"/);
    const r = await run('run', 'storyturn', '--data', 'new.json', '--model', 'agent:oracle', '--db', 'm.db', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ planned: 1, done: 1 });
  });
});

describe('StoryTurn Parquet tables', () => {
  it('reads a Parquet table of turns with the default column names', async () => {
    const { parquetWriteBuffer } = await import('hyparquet-writer');
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-parquet-'));
    const col = (name: string, data: string[]) => ({ name, data, type: 'STRING' as const });
    const buf = parquetWriteBuffer({
      columnData: [
        col('story_id', ['p1', 'p1']),
        col('turn', ['1', '2']),
        col('story', ['Mia hides the ball in the box.', 'Mia leaves; Ben moves it to the bag.']),
        col('feedback', ['', 'If right: Yes.; If wrong: It is in the box.']),
        col('question', ['Where is the ball?', 'Where will Mia look?']),
        col('image', ['', '']),
        col('answer', ['box', 'box']),
        col('mental_state', ['Beliefs', 'Beliefs']),
        col('setting', ['text-complete', 'text-complete']),
      ],
    });
    writeFileSync(join(dir, 'st.parquet'), Buffer.from(buf));
    const s = (await readStoryTurns(join(dir, 'st.parquet')))[0]!;
    expect(s).toMatchObject({ id: 'p1', state: 'belief', setting: 'text-complete' });
    expect(s.turns.map((t) => t.question)).toEqual(['Where is the ball?', 'Where will Mia look?']);
  });
});
