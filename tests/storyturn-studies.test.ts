// CoMMET's studies beyond story accuracy: its categories (NLC, NLCE, MBK) and task names; two
// images in one turn, one per condition; the state x setting cross-tab, per-turn accuracy and
// the final "why" turn apart; the open-answer rubric and judge-human agreement (kappa, AC1);
// review tallies and dataset statistics; and human answers imported under the same protocol.
// Expected values are computed here from the stored records, independently of the metrics code.

import { collect } from '../src/store/index.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRegistry, definePlugin, defineProvider, importHumanAnswers, openStore, scoreRun, type ChatModel } from '../src/index.js';
import { readRecord } from '../src/core/index.js';
import { loadRubric } from '../src/judges/index.js';
import {
  applePicture,
  generateStoryTurns,
  judgeHumanAgreement,
  parseHumanLabels,
  readStoryTurns,
  STORYTURN_RECORDS,
  storedStories,
  storyJudgeScorer,
  storyTurnDatasetStats,
  storyTurnMetrics,
  turnImages,
  validateStoryTurn,
  type StoryTurnStory,
} from '../src/studies/storyturn/index.js';
import { evaluate } from './helpers/evaluate.js';
import { runCli } from './helpers/run-cli.js';

// Image files must hold real images (PNG magic bytes): two different pictures stand for the cookie and the apple.
const COOKIE = Buffer.from(applePicture('big').split(',')[1]!, 'base64');
const APPLE = Buffer.from(applePicture('small').split(',')[1]!, 'base64');

const desireStory = (images: Record<string, string>, image2: string): StoryTurnStory & { mental_state: string } => ({
  id: 'd1',
  state: 'desire',
  mental_state: 'desire',
  setting: 'image-dependent',
  status: 'approved',
  category: 'MBK',
  task: 'diverse desire',
  images,
  turns: [
    { story: 'A cookie or an apple?', feedback: '', question: 'Which do you choose?', image: '', answer: 'cookie; apple' },
    {
      story: 'Sam likes something else.',
      feedback: 'If the previous answer is cookie: Sam skips the cookie.; If the previous answer is apple: Sam skips the apple.',
      question: 'What does Sam choose?',
      image: image2,
      answer: 'apple; cookie',
    },
  ],
});

describe('CoMMET categories, tasks and images per condition', () => {
  it('reads category and task (JSON and a table of turns) and refuses an unknown category', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-commet-'));
    writeFileSync(join(dir, 'c.png'), COOKIE);
    writeFileSync(join(dir, 'a.png'), APPLE);
    writeFileSync(join(dir, 's.json'), JSON.stringify([desireStory({ imgC: 'c.png', imgA: 'a.png' }, 'imgC;imgA')]));
    const [s] = await readStoryTurns(join(dir, 's.json'));
    // Each file is read once: the story holds its bytes, and the paths as the file gives them.
    const b64 = (b: Buffer) => `data:image/png;base64,${b.toString('base64')}`;
    expect(s).toMatchObject({
      category: 'MBK',
      task: 'diverse desire',
      images: { imgC: b64(COOKIE), imgA: b64(APPLE) },
      imageFiles: { imgC: 'c.png', imgA: 'a.png' },
    });
    writeFileSync(
      join(dir, 't.csv'),
      'story_id,turn,story,feedback,question,image,answer,mental_state,setting,image_path,category,task\n' +
        'x,1,Pick one.,,Which?,,cookie; apple,desire,image-dependent,,nlc,sarcasm\n' +
        'x,2,Sam.,If the previous answer is cookie: a.; If the previous answer is apple: b.,What?,i1;i2,apple; cookie,desire,image-dependent,c.png;a.png,nlc,sarcasm\n',
    );
    const [t] = await readStoryTurns(join(dir, 't.csv'));
    expect(t).toMatchObject({
      category: 'NLC',
      task: 'sarcasm',
      images: { i1: b64(COOKIE), i2: b64(APPLE) },
      imageFiles: { i1: 'c.png', i2: 'a.png' },
    });
    const bad = { ...s!, category: 'XYZ' };
    expect(() => validateStoryTurn(bad, 'f.json')).toThrow(/category must be one of NLC, NLCE, MBK or a mental state, not "XYZ"/);
    const three = desireStory({ imgC: 'c', imgA: 'a', imgX: 'x' }, 'imgC;imgA;imgX');
    expect(() => validateStoryTurn(three, 'f.json')).toThrow(
      /turn 2: the turn has 3 images but its feedback has 2 conditions: one image per condition/,
    );
  });

  it('shows the image of the condition the previous answer selects, and all images of a turn without conditions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-commet-img-'));
    writeFileSync(join(dir, 'c.png'), COOKIE);
    writeFileSync(join(dir, 'a.png'), APPLE);
    const story = desireStory({ imgC: 'c.png', imgA: 'a.png' }, 'imgC;imgA');
    const plain = { ...desireStory({ imgC: 'c.png', imgA: 'a.png' }, 'imgC;imgA'), id: 'd2' };
    plain.turns[1] = { ...plain.turns[1]!, feedback: '', answer: 'apple' };
    writeFileSync(join(dir, 's.json'), JSON.stringify([story, plain]));
    const store = await openStore(':memory:');
    await evaluate({ store, suites: ['storyturn'], data: join(dir, 's.json'), models: ['agent:oracle'], images: true, runId: 'img' });
    const images = async (id: string) => {
      const t = (await store.transcript({
        runId: 'img',
        subjectId: (await collect(store.responses('img')))[0]!.subjectId,
        suite: 'storyturn',
        itemId: id,
        replicate: 0,
      }))!;
      const second = t.transcript.calls[1]!.messages!.filter((m) => m.role === 'user').at(-1)!;
      const parts = Array.isArray(second.content) ? second.content.filter((p) => p.type === 'image') : [];
      return {
        record: readRecord(STORYTURN_RECORDS, t.transcript, id)!.turns[1]!.images,
        parts: parts.map((p) => (p as { url: string }).url),
      };
    };
    const b64 = (b: Buffer) => `data:image/png;base64,${b.toString('base64')}`;
    // The oracle answers "cookie" first: the cookie condition's image only.
    expect(await images('d1')).toEqual({ record: ['imgC'], parts: [b64(COOKIE)] });
    expect(await images('d2')).toEqual({ record: ['imgC', 'imgA'], parts: [b64(COOKIE), b64(APPLE)] });
    // Right/wrong conditions: the first image after a right answer, the second after a wrong one.
    const rw = desireStory({ i1: 'c', i2: 'a' }, 'i1;i2');
    rw.turns[1] = { ...rw.turns[1]!, feedback: 'If right: good.; If wrong: look again.', answer: 'apple' };
    expect(turnImages(rw, 1, { reply: 'cookie', correct: true })).toEqual(['i1']);
    expect(turnImages(rw, 1, { reply: 'pear', correct: false })).toEqual(['i2']);
    expect(turnImages(rw, 1, undefined)).toEqual(['i1', 'i2']);
    await store.close();
  });
});

describe('StoryTurn metrics: cross-tab, per turn, the final "why" apart, categories and tasks', () => {
  it('agree with counts taken here from the stored records', async () => {
    const store = await openStore(':memory:');
    await evaluate({ store, suites: ['generated-storyturn'], limit: 36, models: ['agent:random'], trials: 2, seed: 4, runId: 'm' });
    const m = storyTurnMetrics(await storedStories(store, 'm'))[0]!;
    const records = await Promise.all(
      (await collect(store.responses('m'))).map(async (r) => {
        const t = (await store.transcript({
          runId: 'm',
          subjectId: r.subjectId,
          suite: r.suite,
          itemId: r.itemId,
          replicate: r.replicate,
        }))!;
        return readRecord(STORYTURN_RECORDS, t.transcript, r.itemId)!;
      }),
    );
    expect(records).toHaveLength(72);
    for (const cell of m.byStateSetting) {
      const mine = records.filter((d) => d.state === cell.state && d.setting === cell.setting);
      expect([cell.k, cell.n]).toEqual([mine.filter((d) => d.correct).length, mine.length]);
    }
    expect(m.byStateSetting.reduce((s, c) => s + c.n, 0)).toBe(72);
    for (const t of m.byTurn) {
      const at = records.filter((d) => d.turns.length >= t.turn).map((d) => d.turns[t.turn - 1]!.correct);
      expect([t.k, t.n]).toEqual([at.filter(Boolean).length, at.length]);
    }
    const whys = records.flatMap((d) => d.turns.filter((x) => /^\s*why\b/i.test(x.question)));
    expect(whys.length).toBeGreaterThan(0);
    expect([m.whyQuestions!.k, m.whyQuestions!.n]).toEqual([whys.filter((x) => x.correct).length, whys.length]);
    const ending = records.filter((d) => d.turns.length > 1 && /^\s*why\b/i.test(d.turns.at(-1)!.question));
    expect(m.finalWhy!.stories).toBe(ending.length);
    expect(m.finalWhy!.beforeWhy.k).toBe(ending.filter((d) => d.turns.slice(0, -1).every((x) => x.correct)).length);
    expect(m.finalWhy!.why.k).toBe(ending.filter((d) => d.turns.at(-1)!.correct).length);
    // Sarcasm stories are reported under NLC, the others under their state; every story has its task.
    expect(m.byCategory.map((c) => c.category)).toContain('NLC');
    expect(m.byCategory.find((c) => c.category === 'NLC')!.n).toBe(records.filter((d) => d.state === 'non-literal').length);
    expect(m.byTask.map((t) => t.task)).toContain('second-order belief-desire');
    expect(m.byTask.some((t) => t.task === '-')).toBe(false);
    await store.close();
  });
});

/** A judge that grades an open answer right when it contains the expected answer, and records the prompts it sees. */
function graders(prompts: string[]) {
  return defineProvider({
    prefix: 'grader',
    form: 'grader:NAME',
    create: (name, spec): ChatModel => ({
      spec,
      provider: 'grader',
      model: name,
      endpoint: spec,
      local: false,
      async chat(req) {
        const text = String(req.messages.at(-1)!.content);
        prompts.push(text);
        const expected = /Ground-truth answer: (.*)/.exec(text)![1]!.split(' / ')[0]!.toLowerCase();
        const answer = /Answer to grade: (.*)/.exec(text)![1]!.toLowerCase();
        return {
          text: JSON.stringify({ reason: 'compared', correct: answer.includes(expected) ? 1 : 0 }),
          usage: { inputTokens: 1, outputTokens: 1 },
          latencyMs: 0,
        };
      },
    }),
  });
}

describe("the open-answer rubric and the judge's agreement with human labels", () => {
  it('judges open turns with the story so far; kappa and AC1 against labels match a computation by hand', async () => {
    const rubric = loadRubric('commet-open-answer');
    expect(rubric.fields).toEqual([{ name: 'correct', min: 0, max: 1, integer: true }]);
    const prompts: string[] = [];
    const registry = createRegistry([definePlugin({ name: 'graders', providers: [graders(prompts)] })]);
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-commet-judge-'));
    const store = await openStore(join(dir, 'm.db'));
    await evaluate({ store, suites: ['generated-storyturn'], limit: 24, models: ['agent:random'], seed: 2, runId: 'j' });
    await scoreRun({ store, runId: 'j', rubricPath: 'commet-open-answer', judges: ['grader:one'], registry });
    expect(prompts.length).toBeGreaterThan(0);
    // The judge sees the story up to the question (the first turn's text at least), never blank.
    expect(prompts.every((p) => /The story so far:\n\S/.test(p))).toBe(true);
    const scorer = (await storyJudgeScorer(store, 'j'))!;
    const stories = await storedStories(store, 'j', scorer);
    expect(stories[0]!.scorer).toBe('judge:commet-open-answer (open turns) + exact (closed turns)');
    // Human labels: agree with the judge on every open turn but the first two, which they flip; two raters on one answer.
    const open: Array<{ item: string; turn: number; judge: boolean }> = [];
    for await (const r of store.responses('j')) {
      if (r.suite !== 'generated-storyturn' || r.replicate !== 0) continue;
      const s = await store.scoreOf({ runId: 'j', subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: 0 }, scorer);
      for (const t of (s!.detail as { turns: Array<{ turn: number; open: boolean; correct: boolean }> }).turns)
        if (t.open) open.push({ item: r.itemId, turn: t.turn, judge: t.correct });
    }
    expect(open.length).toBeGreaterThan(4);
    const human = open.map((o, i) => (i < 2 ? !o.judge : o.judge));
    const lines = [
      'subject,item,turn,label,rater',
      ...open.map((o, i) => `agent:random,${o.item},${o.turn},${human[i] ? 'correct' : 'incorrect'},r1`),
    ];
    lines.push(`agent:random,${open[0]!.item},${open[0]!.turn},${human[0] ? 1 : 0},r2`, 'agent:random,no-such-story,1,1,r1');
    const labels = parseHumanLabels(lines.join('\n'), 'labels.csv');
    const a = await judgeHumanAgreement(store, 'j', scorer, labels);
    // By hand, over r1's labels and r2's one: po, Cohen's pe from the two marginals, kappa.
    const pairs = [...open.map((o, i) => [human[i]!, o.judge] as const), [human[0]!, open[0]!.judge] as const];
    const n = pairs.length;
    const po = pairs.filter(([h, j]) => h === j).length / n;
    const hRight = pairs.filter(([h]) => h).length / n;
    const jRight = pairs.filter(([, j]) => j).length / n;
    const pe = hRight * jRight + (1 - hRight) * (1 - jRight);
    expect(a.judge!.n).toBe(n);
    expect(a.judge!.percentAgreement).toBeCloseTo(po, 12);
    expect(a.judge!.kappa).toBeCloseTo((po - pe) / (1 - pe), 12);
    const pi = (hRight + jRight) / 2;
    expect(a.judge!.ac1).toBeCloseTo((po - 2 * pi * (1 - pi)) / (1 - 2 * pi * (1 - pi)), 12);
    expect(a.judge!.byRater.map((r) => [r.rater, r.n])).toEqual([
      ['r1', open.length],
      ['r2', 1],
    ]);
    expect(a.betweenRaters).toMatchObject({ answers: 1, percentAgreement: 1 });
    expect(a.unmatched).toEqual([lines.length]);
    await store.close();
    // The CLI prints the same numbers.
    writeFileSync(join(dir, 'labels.csv'), lines.join('\n'));
    const out = await runCli([
      'storyturn',
      'agreement',
      '--run-id',
      'j',
      '--labels',
      join(dir, 'labels.csv'),
      '--db',
      join(dir, 'm.db'),
      '--json',
    ]);
    expect(out.stderr).toBe('');
    expect(JSON.parse(out.stdout).judge.kappa).toBeCloseTo(a.judge!.kappa, 12);
    expect(() => parseHumanLabels('subject,item,turn,label\nx,y,1,maybe\n', 'l.csv')).toThrow(/l\.csv:2: label must be 1\/0/);
  });
});

describe('review tallies and dataset statistics', () => {
  it('counts stories, turns, questions and images per story, and rejections by error type', async () => {
    const stories = generateStoryTurns({ count: 12, seed: 5 });
    stories[0] = { ...stories[0]!, status: 'rejected', review: ['answer-revealed: the text says where it is', 'format'] };
    stories[1] = { ...stories[1]!, status: 'rejected', review: ['answer-revealed'] };
    stories[2] = { ...stories[2]!, status: 'generated', review: ['something else: fixed'] };
    const s = storyTurnDatasetStats(stories);
    expect(s.stories).toBe(12);
    expect(s.byStatus).toEqual({ approved: 9, generated: 1, rejected: 2 });
    expect(s.rejections).toEqual({
      stories: 2,
      byType: { 'answer-revealed': 2, format: 1 },
      notesByType: { 'answer-revealed': 2, format: 1, other: 1 },
    });
    const turns = stories.map((x) => x.turns.length);
    expect(s.turns).toEqual({
      total: turns.reduce((a, b) => a + b, 0),
      mean: turns.reduce((a, b) => a + b, 0) / 12,
      max: Math.max(...turns),
    });
    expect(s.questions.total).toBe(stories.reduce((n, x) => n + x.turns.filter((t) => t.question).length, 0));
    expect(s.images.total).toBe(stories.reduce((n, x) => n + new Set(x.turns.map((t) => t.image).filter(Boolean)).size, 0));
    expect(s.byCategory.NLC).toBe(stories.filter((x) => x.state === 'non-literal').length);
    // CoMMET's own totals satisfy the same definition: 1,976 questions over 591 StoryTurns is 3.34 per story.
    expect((1976 / 591).toFixed(2)).toBe('3.34');
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-commet-stats-'));
    writeFileSync(join(dir, 's.json'), JSON.stringify(stories.map(({ state, ...x }) => ({ ...x, mental_state: state }))));
    const out = await runCli(['storyturn', 'stats', join(dir, 's.json')]);
    expect(out.stdout).toMatch(/rejected stories: 2; by error type: answer-revealed 2, format 1/);
  });
});

describe('human answers under the same protocol', () => {
  it('replay through the conversation protocol, feedback chosen by each answer, and appear in the results', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-commet-humans-'));
    const story = desireStory({}, '');
    story.setting = 'text-complete';
    writeFileSync(join(dir, 's.json'), JSON.stringify([story]));
    const store = await openStore(':memory:');
    await evaluate({ store, suites: ['storyturn'], data: join(dir, 's.json'), models: ['agent:oracle'], runId: 'hs' });
    writeFileSync(
      join(dir, 'kids.csv'),
      'suite,item,participant,turn,answer\nstoryturn,d1,k1,1,apple\nstoryturn,d1,k1,2,cookie\nstoryturn,d1,k2,1,cookie\nstoryturn,d1,k2,2,cookie\n',
    );
    const r = await importHumanAnswers({ store, runId: 'hs', name: 'kids', file: join(dir, 'kids.csv') });
    expect(r).toMatchObject({ subject: 'human:kids', participants: ['k1', 'k2'], trials: 2 });
    const stories = (await storedStories(store, 'hs')).filter((s) => s.subject === 'human:kids');
    // k1 chose the apple, so Sam's turn expects the cookie: right; k2 chose the cookie and then the cookie again: wrong.
    expect(stories.map((s) => s.correct).sort()).toEqual([false, true]);
    const k1 = (await store.transcript({ runId: 'hs', subjectId: r.subjectId, suite: 'storyturn', itemId: 'd1', replicate: 0 }))!;
    expect(readRecord(STORYTURN_RECORDS, k1.transcript, 'd1')!.turns[1]).toMatchObject({
      feedbackShown: 'Sam skips the apple.',
      expected: ['cookie'],
      correct: true,
    });
    expect(k1.transcript.calls).toEqual([]);
    writeFileSync(join(dir, 'gap.csv'), 'suite,item,participant,turn,answer\nstoryturn,d1,k3,1,apple\n');
    await expect(importHumanAnswers({ store, runId: 'hs', name: 'gap', file: join(dir, 'gap.csv') })).rejects.toThrow(
      /gap\.csv:2: k3's answers to StoryTurn d1 lack turn\(s\) 2/,
    );
    await store.close();
    expect(readFileSync(join(dir, 'kids.csv'), 'utf8')).toContain('k2');
  });
});
