// StoryTurn files written by mindscope load in mindscope, in the format their extension names:
// the whole pipeline from the command line (generate -> illustrate -> review by three reviewers
// -> review again -> stats -> run) on a JSON Lines file reviewed from another folder by its
// absolute path, the folder then moved; a JSON list; a CSV table reviewed into a JSON file.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applePicture, readStoryTurns, storyContentHash, type StoryTurnStory } from '../src/studies/storyturn/index.js';
import { startImageServer, type ImageServer } from './helpers/image-server.js';
import { runCli } from './helpers/run-cli.js';

const example = {
  id: 'ex',
  mental_state: 'desire',
  setting: 'text-complete',
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
};

/** The records of a JSON Lines file, each line parsed alone (what the loader does). */
const jsonLines = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown> & { images: Record<string, string>; status: string });

describe('StoryTurn files round-trip through the command line', () => {
  let server: ImageServer;
  const KEY = 'sk-illustrate-test-0123456789abcdef';
  beforeAll(async () => {
    server = await startImageServer(KEY);
  });
  afterAll(async () => server.stop());

  it('generate -> illustrate -> review x3 -> review again -> stats -> run, a JSONL file kept JSONL with relative image paths', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-files-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-cwd-'));
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'example.json'), JSON.stringify([example]));
    const run = (args: string[], cwd = dir) => runCli(args, { cwd, env: { IMG_KEY: KEY } });
    const file = join(dir, 'data', 'new.jsonl');

    const gen = await run([
      'storyturn',
      'generate',
      '--example',
      'example.json',
      '--aspect',
      'hidden apple',
      '--model',
      `openai-compatible:${server.url}/v1#picture-storyteller`,
      '--api-key-env',
      'IMG_KEY',
      '--n',
      '2',
      '--out',
      'data/new.jsonl',
      '--db',
      'm.db',
    ]);
    expect(gen.stderr).toBe('');
    expect(gen.stdout).toMatch(/wrote 2 generated StoryTurn\(s\) to data\/new\.jsonl; 0 reply\(ies\) rejected/);
    // One story a line; the image ids the author gave are kept, awaiting their drawings.
    const generated = jsonLines(file);
    expect(generated.map((r) => [r.id, r.status, r.setting])).toEqual([
      ['hidden-apple-001', 'generated', 'image-dependent'],
      ['hidden-apple-002', 'generated', 'image-dependent'],
    ]);
    expect((generated[0]!.turns as Array<{ image: string }>).map((t) => t.image)).toEqual([
      'hidden-apple-001_tree',
      'hidden-apple-001_right;hidden-apple-001_wrong',
    ]);
    // An approval before the images are drawn is refused.
    const early = await run(['storyturn', 'review', 'data/new.jsonl', '--id', 'hidden-apple-001', '--reviewer', 'ana', '--approve']);
    expect(early.stderr).toMatch(/names images not drawn yet \(hidden-apple-001_tree, hidden-apple-001_right, hidden-apple-001_wrong\)/);

    const drawn = await run([
      'storyturn',
      'illustrate',
      'data/new.jsonl',
      '--model',
      `openai-compatible:${server.url}/v1#painter`,
      '--api-key-env',
      'IMG_KEY',
    ]);
    expect(drawn.stderr).toBe('');
    expect(drawn.stdout.split('\n')[0]).toBe(
      `drew with openai-compatible:${server.url}/v1#painter 6 of 6 image(s); 0 failed; 2 StoryTurn(s) changed and await review`,
    );
    expect(drawn.stdout + readFileSync(file, 'utf8')).not.toContain(KEY);
    const illustrated = jsonLines(file);
    expect(illustrated[0]!.images).toEqual({
      'hidden-apple-001_tree': 'images/hidden-apple-001/hidden-apple-001_tree.png',
      'hidden-apple-001_right': 'images/hidden-apple-001/hidden-apple-001_right.png',
      'hidden-apple-001_wrong': 'images/hidden-apple-001/hidden-apple-001_wrong.png',
    });
    const tree = readFileSync(join(dir, 'data', 'images', 'hidden-apple-001', 'hidden-apple-001_tree.png'));
    expect(tree.subarray(1, 4).toString()).toBe('PNG');
    const loaded = await readStoryTurns(file);
    expect(loaded[0]!.images['hidden-apple-001_tree']).toBe(`data:image/png;base64,${tree.toString('base64')}`);

    // Three reviewers, from another folder, naming the file by its absolute path.
    const review = (id: string, reviewer: string, ...verdict: string[]) =>
      run(['storyturn', 'review', file, '--id', id, '--reviewer', reviewer, ...verdict], elsewhere);
    expect((await review('hidden-apple-001', 'ana', '--approve')).stdout).toBe(
      'hidden-apple-001: generated (approved by ana; 2 more approval(s) needed)\n',
    );
    await review('hidden-apple-001', 'ben', '--approve');
    expect((await review('hidden-apple-001', 'cy', '--approve')).stdout).toBe('hidden-apple-001: approved (approved by ana, ben, cy)\n');
    await review('hidden-apple-002', 'ana', '--approve');
    expect((await review('hidden-apple-002', 'ben', '--reject', 'image-issue', '--note', 'Mia looks older')).stdout).toBe(
      'hidden-apple-002: rejected (approved by ana; rejected by ben: image-issue (Mia looks older))\n',
    );
    await review('hidden-apple-002', 'cy', '--approve');
    // Still JSON Lines, still relative paths, after every review.
    const reviewed = jsonLines(file);
    expect(reviewed.map((r) => r.status)).toEqual(['approved', 'rejected']);
    expect(reviewed[0]!.images).toEqual(illustrated[0]!.images);

    // The rejected image is drawn again: a new version, whose earlier verdicts no longer count.
    const redraw = await run([
      'storyturn',
      'illustrate',
      'data/new.jsonl',
      '--id',
      'hidden-apple-002',
      '--redraw',
      'hidden-apple-002_right',
      '--model',
      `openai-compatible:${server.url}/v1#painter`,
      '--api-key-env',
      'IMG_KEY',
    ]);
    expect(redraw.stdout.split('\n')[0]).toMatch(/1 of 1 image\(s\); 0 failed; 1 StoryTurn\(s\) changed and await review$/);
    for (const r of ['ana', 'ben', 'cy']) await review('hidden-apple-002', r, '--approve');
    const reviews = await run(['storyturn', 'reviews', 'data/new.jsonl', '--json']);
    const summary = JSON.parse(reviews.stdout);
    expect(summary.stories).toEqual([
      { id: 'hidden-apple-001', status: 'approved', approvals: ['ana', 'ben', 'cy'], rejections: [], needed: 0, earlier: 0 },
      { id: 'hidden-apple-002', status: 'approved', approvals: ['ana', 'ben', 'cy'], rejections: [], needed: 0, earlier: 3 },
    ]);
    const [, second] = await readStoryTurns(file);
    expect(second!.reviews!.map((r) => r.content === storyContentHash(second!))).toEqual([false, false, false, true, true, true]);

    const stats = await run(['storyturn', 'stats', file], elsewhere);
    expect(stats.stdout).toMatch(/^2 StoryTurns: approved 2$/m);
    expect(stats.stdout).toMatch(/^images: 6 \(mean 3\.00 per story, max 3\)$/m);
    expect(stats.stdout).toMatch(/^review notes by error type: image-issue 1$/m);

    const r = await run(['run', 'storyturn', '--data', 'data/new.jsonl', '--model', 'agent:oracle', '--images', '--db', 'm.db', '--json']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ planned: 2, done: 2 });

    // The folder moved elsewhere loads the same: the paths are relative to the file.
    const moved = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-moved-'));
    cpSync(join(dir, 'data'), moved, { recursive: true });
    const again = await readStoryTurns(join(moved, 'new.jsonl'));
    expect(again.map((s) => [s.status, s.images])).toEqual((await readStoryTurns(file)).map((s) => [s.status, s.images]));
  });
});

describe('StoryTurn files in each format', () => {
  it('a JSON list stays a JSON list; a CSV table is reviewed into the JSON or JSONL file --out names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-formats-'));
    mkdirSync(join(dir, 'pics'));
    writeFileSync(join(dir, 'pics', 'apple.png'), Buffer.from(applePicture('big').split(',')[1]!, 'base64'));
    const story = { ...example, id: 'j1', status: 'generated', setting: 'image-dependent', images: { img: 'pics/apple.png' } };
    story.turns = [{ ...example.turns[0]!, image: 'img' }, example.turns[1]!];
    writeFileSync(join(dir, 's.json'), JSON.stringify([story]));
    const run = (...args: string[]) => runCli(args, { cwd: dir });
    expect((await run('storyturn', 'review', 's.json', '--id', 'j1', '--reviewer', 'ana', '--approve')).stderr).toBe('');
    const written = JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'));
    expect(Array.isArray(written)).toBe(true);
    expect(written[0]).toMatchObject({ id: 'j1', mental_state: 'desire', images: { img: 'pics/apple.png' }, status: 'generated' });
    expect((await run('storyturn', 'review', 's.json', '--id', 'j1', '--reviewer', 'ben', '--approve')).stdout).toMatch(/1 more approval/);

    writeFileSync(
      join(dir, 't.csv'),
      'story_id,turn,story,feedback,question,image,answer,mental_state,setting,image_path,status\n' +
        'c1,1,Three apples.,,Which is biggest?,img01,big,Percepts,image-dependent,pics/apple.png,generated\n',
    );
    const table = await run('storyturn', 'review', 't.csv', '--id', 'c1', '--reviewer', 'ana', '--approve');
    expect(table.stderr).toMatch(/t\.csv is a table of turns: give --out FILE\.json or FILE\.jsonl/);
    expect(readFileSync(join(dir, 't.csv'), 'utf8')).toMatch(/^story_id,turn/);
    mkdirSync(join(dir, 'out'));
    // Written in a folder that does not hold the images: refused, naming the image.
    const outside = await run('storyturn', 'review', 't.csv', '--id', 'c1', '--reviewer', 'ana', '--approve', '--out', 'out/c.jsonl');
    expect(outside.stderr).toMatch(/the image "img01" of StoryTurn "c1" lies at .*apple\.png, outside the folder of out\/c\.jsonl/);
    const ok = await run('storyturn', 'review', 't.csv', '--id', 'c1', '--reviewer', 'ana', '--approve', '--out', 'c.jsonl');
    expect(ok.stdout).toBe('c1: generated (approved by ana; 2 more approval(s) needed)\n');
    expect(jsonLines(join(dir, 'c.jsonl'))[0]).toMatchObject({ id: 'c1', mental_state: 'percept', images: { img01: 'pics/apple.png' } });
    const [c] = await readStoryTurns(join(dir, 'c.jsonl'));
    expect(c!.reviews).toEqual([{ reviewer: 'ana', verdict: 'approve', content: storyContentHash(c as StoryTurnStory) }]);
    const txt = await run('storyturn', 'review', 's.json', '--id', 'j1', '--reviewer', 'cy', '--approve', '--out', 'x.txt');
    expect(txt.stderr).toMatch(/x\.txt: StoryTurns are written as JSON \(\.json\) or JSON Lines \(\.jsonl\), not "\.txt"/);
    const gen = await run('storyturn', 'generate', '--example', 's.json', '--aspect', 'a', '--model', 'agent:oracle', '--out', 'n.csv');
    expect(gen.stderr).toMatch(/n\.csv: StoryTurns are written as JSON/);
  });
});
