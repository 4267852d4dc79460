// CoMMET's illustration pipeline: the paper's image-generation prompt per image (checked against
// the paper's words written out here), drawn through the openai SDK's images.generate against a
// real local server (b64_json and URL replies, GPT image models asked without response_format),
// failures reported per image, a refused key stopping everything, no key in any output; and the
// prompts written for another tool, whose images are then attached.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageModel } from '../src/models/index.js';
import { illustrationRequests, readStoryTurns, type StoryTurnStory } from '../src/studies/storyturn/index.js';
import { startImageServer, type ImageServer } from './helpers/image-server.js';
import { runCli } from './helpers/run-cli.js';

/** The paper's prompt (Section 3.2.2, "Prompt for Image Generation"), as printed there. */
const paper = (history: string, scene: string) =>
  `Children’s book illustration. PREVIOUS STORY EVENTS (Context): ${history} CURRENT SCENE: ${scene} CONTINUITY: The illustration should naturally follow the previous image as the next sequential scene, while keeping the characters’ appearances exactly consistent.`;

const story: StoryTurnStory = {
  id: 'cookies',
  state: 'desire',
  setting: 'image-dependent',
  status: 'generated',
  images: {},
  turns: [
    { story: 'Mom leaves a cookie and an apple.', feedback: '', question: 'Which do you choose?', image: 'k1', answer: 'cookie; apple' },
    {
      story: 'Sam comes in.',
      feedback: 'If the previous answer is cookie: Sam skips the cookie.; If the previous answer is apple: Sam skips the apple.',
      question: 'What does Sam choose?',
      image: 'k2a;k2b',
      answer: 'apple; cookie',
    },
    {
      story: 'Dad packs a snack.',
      feedback: 'If right: Yes, Sam wanted it.; If wrong: Sam wanted the other one.',
      question: 'Why?',
      image: 'k3r;k3w',
      answer: 'he likes it',
    },
    { story: 'Mom comes back.', feedback: '', question: 'Is she glad?', image: 'k1', answer: 'yes' },
  ],
};

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);

describe('illustration prompts', () => {
  it("fill the paper's prompt with the earlier turns' story and the image's scene, one per image condition", () => {
    const r = illustrationRequests(story, { imagesDir: 'images' });
    expect(r.map((x) => [x.image, x.turn, x.file])).toEqual([
      ['k1', 1, 'images/cookies/k1.png'],
      ['k2a', 2, 'images/cookies/k2a.png'],
      ['k2b', 2, 'images/cookies/k2b.png'],
      ['k3r', 3, 'images/cookies/k3r.png'],
      ['k3w', 3, 'images/cookies/k3w.png'],
    ]);
    expect(r.map((x) => x.prompt)).toEqual([
      paper('(none)', 'Mom leaves a cookie and an apple.'),
      paper('Mom leaves a cookie and an apple.', 'Sam skips the cookie. Sam comes in.'),
      paper('Mom leaves a cookie and an apple.', 'Sam skips the apple. Sam comes in.'),
      paper('Mom leaves a cookie and an apple. Sam comes in.', 'Yes, Sam wanted it. Dad packs a snack.'),
      paper('Mom leaves a cookie and an apple. Sam comes in.', 'Sam wanted the other one. Dad packs a snack.'),
    ]);
    // Held images are not asked for again unless redrawn.
    const held = { ...story, images: { k1: 'data:image/png;base64,x', k2a: 'data:image/png;base64,x' } };
    expect(illustrationRequests(held, { imagesDir: 'pics', redraw: ['k1'] }).map((x) => x.file)).toEqual([
      'pics/cookies/k1.png',
      'pics/cookies/k2b.png',
      'pics/cookies/k3r.png',
      'pics/cookies/k3w.png',
    ]);
  });

  it('refuses image model specs it cannot call, and keys in a URL', () => {
    expect(() => createImageModel('anthropic:claude')).toThrow(/image generation takes openai:MODEL or openai-compatible:BASE_URL#MODEL/);
    expect(() => createImageModel('openai-compatible:http://u:secretpass@h/v1#m')).toThrow(/carries credentials/);
    expect(() => createImageModel('openai:gpt-image-1', { env: {} })).toThrow(/set OPENAI_API_KEY in the environment/);
  });
});

describe('storyturn illustrate against a local images API', () => {
  let server: ImageServer;
  const KEY = 'sk-painter-key-9876543210fedcba';
  beforeAll(async () => {
    server = await startImageServer(KEY);
  });
  afterAll(async () => server.stop());

  const setup = () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-illustrate-'));
    writeFileSync(join(dir, 's.jsonl'), `${JSON.stringify({ ...story, mental_state: 'desire' })}\n`);
    const run = (...args: string[]) => runCli(args, { cwd: dir, env: { PAINTER_KEY: KEY, OPENAI_API_KEY: KEY } });
    return { dir, run };
  };

  it('sends each prompt with the key from the environment, writes the images beside the file and references them', async () => {
    const { dir, run } = setup();
    const before = (await server.stats()).images.length;
    const model = `openai-compatible:${server.url}/v1#painter`;
    const out = await run(
      'storyturn',
      'illustrate',
      's.jsonl',
      '--model',
      model,
      '--api-key-env',
      'PAINTER_KEY',
      '--size',
      '256x256',
      '--json',
    );
    expect(out.stderr).toBe('');
    const result = JSON.parse(out.stdout);
    expect(result).toMatchObject({ requests: 5, failed: [], changed: ['cookies'] });
    expect(result.done.map((d: { file: string }) => d.file)).toEqual([
      'images/cookies/k1.png',
      'images/cookies/k2a.png',
      'images/cookies/k2b.png',
      'images/cookies/k3r.png',
      'images/cookies/k3w.png',
    ]);
    const seen = (await server.stats()).images.slice(before);
    expect(seen.map((x) => x.prompt)).toEqual(illustrationRequests(story, { imagesDir: 'images' }).map((x) => x.prompt));
    expect(seen.every((x) => x.model === 'painter' && x.size === '256x256' && x.response_format === 'b64_json' && x.auth)).toBe(true);
    const [s] = await readStoryTurns(join(dir, 's.jsonl'));
    expect(s!.imageFiles).toEqual(Object.fromEntries(result.done.map((d: { image: string; file: string }) => [d.image, d.file])));
    for (const d of result.done)
      expect(s!.images[d.image]).toBe(`data:image/png;base64,${readFileSync(join(dir, d.file)).toString('base64')}`);
    expect(new Set(Object.values(s!.images)).size).toBe(5);
    expect(out.stdout + readFileSync(join(dir, 's.jsonl'), 'utf8')).not.toContain(KEY);
  });

  it('GPT image models are not sent response_format; a URL reply is fetched', async () => {
    const { dir, run } = setup();
    const before = (await server.stats()).images.length;
    const gpt = await runCli(['storyturn', 'illustrate', 's.jsonl', '--model', 'openai:gpt-image-1', '--id', 'cookies', '--redraw', 'k1'], {
      cwd: dir,
      env: { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: `${server.url}/v1` },
    });
    expect(gpt.stdout.split('\n')[0]).toBe(
      'drew with openai:gpt-image-1 5 of 5 image(s); 0 failed; 1 StoryTurn(s) changed and await review',
    );
    expect((await server.stats()).images.slice(before).map((x) => [x.model, x.response_format ?? null])[0]).toEqual(['gpt-image-1', null]);
    const url = await run(
      'storyturn',
      'illustrate',
      's.jsonl',
      '--redraw',
      'k2b',
      '--model',
      `openai-compatible:${server.url}/v1#url-painter`,
      '--api-key-env',
      'PAINTER_KEY',
    );
    expect(url.stdout.split('\n')[0]).toMatch(/1 of 1 image\(s\); 0 failed/);
    const [s] = await readStoryTurns(join(dir, 's.jsonl'));
    expect(s!.images.k2b).toBe(`data:image/png;base64,${readFileSync(join(dir, 'images/cookies/k2b.png')).toString('base64')}`);
  });

  it('reports a refused image and goes on; a reply that is no image fails; a key in an error is scrubbed; a refused key stops all', async () => {
    const { dir, run } = setup();
    const refused = await run(
      'storyturn',
      'illustrate',
      's.jsonl',
      '--model',
      `openai-compatible:${server.url}/v1#refuse-first`,
      '--api-key-env',
      'PAINTER_KEY',
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^drew with .* 4 of 5 image\(s\); 1 failed; 1 StoryTurn\(s\) changed and await review$/m);
    expect(refused.stdout).toMatch(/^ {2}cookies k1: .*HTTP 400 .*rejected by the safety system/m);
    const [s] = await readStoryTurns(join(dir, 's.jsonl'));
    expect(Object.keys(s!.images).sort()).toEqual(['k2a', 'k2b', 'k3r', 'k3w']);
    expect(s!.status).toBe('generated');
    const notPng = await run(
      'storyturn',
      'illustrate',
      's.jsonl',
      '--model',
      `openai-compatible:${server.url}/v1#not-a-png`,
      '--api-key-env',
      'PAINTER_KEY',
    );
    expect(notPng.stdout).toMatch(/cookies k1: .*malformed response: the image is not a PNG, JPEG, GIF or WebP/);
    const echo = await run(
      'storyturn',
      'illustrate',
      's.jsonl',
      '--model',
      `openai-compatible:${server.url}/v1#echo-key-400`,
      '--api-key-env',
      'PAINTER_KEY',
    );
    expect(echo.stdout).toMatch(/no such model for key/);
    expect(echo.stdout + echo.stderr).not.toContain(KEY);
    const wrong = await runCli(
      ['storyturn', 'illustrate', 's.jsonl', '--model', `openai-compatible:${server.url}/v1#painter`, '--api-key-env', 'PAINTER_KEY'],
      { cwd: dir, env: { PAINTER_KEY: 'sk-wrong-key-000000000000' } },
    );
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/HTTP 401 .*the API key was rejected/);
    expect(wrong.stderr).not.toContain('sk-wrong-key-000000000000');
    expect(existsSync(join(dir, 'images/cookies/k1.png'))).toBe(false);
  });

  it('writes the prompts for another tool, then attaches the images it wrote (turn images given with --each-turn)', async () => {
    const { dir, run } = setup();
    const plain = { ...story, id: 'plain', setting: 'text-complete', turns: story.turns.slice(0, 2).map((t) => ({ ...t, image: '' })) };
    writeFileSync(join(dir, 's.jsonl'), `${JSON.stringify(story)}\n${JSON.stringify(plain)}\n`);
    const p = await run('storyturn', 'illustrate', 's.jsonl', '--prompts-only', 'prompts.jsonl', '--each-turn', '--id', 'plain');
    expect(p.stdout).toMatch(/wrote 2 illustration prompt\(s\) to prompts\.jsonl/);
    const prompts = readFileSync(join(dir, 'prompts.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(prompts).toEqual([
      {
        story_id: 'plain',
        image_id: 'plain_t1',
        turn: 1,
        prompt: paper('(none)', 'Mom leaves a cookie and an apple.'),
        file: 'images/plain/plain_t1.png',
      },
      {
        story_id: 'plain',
        image_id: 'plain_t2',
        turn: 2,
        prompt: paper('Mom leaves a cookie and an apple.', 'Sam comes in.'),
        file: 'images/plain/plain_t2.png',
      },
    ]);
    // The new turn image ids are kept in the story file, the other story untouched.
    const named = await readStoryTurns(join(dir, 's.jsonl'));
    expect(named[1]!.turns.map((t) => t.image)).toEqual(['plain_t1', 'plain_t2']);
    expect(named[0]!.turns.map((t) => t.image)).toEqual(story.turns.map((t) => t.image));
    // The other tool wrote one image, as a JPEG.
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'images/plain'), { recursive: true });
    writeFileSync(join(dir, 'images/plain/plain_t1.jpg'), JPEG);
    const a = await run('storyturn', 'illustrate', 's.jsonl', '--attach', '--id', 'plain');
    expect(a.code).toBe(1);
    expect(a.stdout).toBe(
      'attached 1 of 2 image(s); 1 failed; 1 StoryTurn(s) changed and await review\n  plain plain_t1: images/plain/plain_t1.jpg\n  plain plain_t2: no image at images/plain/plain_t2.png (or .jpg, .gif, .webp)\n',
    );
    writeFileSync(join(dir, 'images/plain/plain_t2.png'), readFileSync(join(dir, 'images/plain/plain_t1.jpg')));
    expect((await run('storyturn', 'illustrate', 's.jsonl', '--attach', '--id', 'plain')).stdout).toMatch(/^attached 1 of 1 image/);
    const [, done] = await readStoryTurns(join(dir, 's.jsonl'));
    expect(done!.imageFiles).toEqual({ plain_t1: 'images/plain/plain_t1.jpg', plain_t2: 'images/plain/plain_t2.png' });
    expect(done!.images.plain_t1).toBe(`data:image/jpeg;base64,${JPEG.toString('base64')}`);
    expect((await run('storyturn', 'illustrate', 's.jsonl')).stderr).toMatch(
      /give exactly one of --model SPEC, --prompts-only FILE and --attach/,
    );
    expect((await run('storyturn', 'illustrate', 's.jsonl', '--attach', '--images-dir', '../x')).stderr).toMatch(
      /--images-dir \.\.\/x: the images must lie in the folder of s\.jsonl/,
    );
  });
});
