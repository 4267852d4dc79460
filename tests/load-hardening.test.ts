// Loading data that tries to break a run (issue 10, item 8): duplicate story and task ids are
// refused at load naming both places (every loader), and StoryTurn images must be real images
// inside the data folder.

import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry, openStore } from '../src/index.js';
import { itemHash } from '../src/runner/index.js';
import { applePicture, readStoryTurns } from '../src/studies/storyturn/index.js';
import { evaluate } from './helpers/evaluate.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { runCli } from './helpers/run-cli.js';

const DATA = join(__dirname, 'fixtures', 'data');
const load = (suite: string, data: string) => createRegistry().suite(suite).load({ data, seed: 0 });

const PNG = Buffer.from(applePicture('big').split(',')[1]!, 'base64');
const story = (id: string, images: Record<string, string> = {}) => ({
  id,
  mental_state: 'belief',
  setting: Object.keys(images).length ? 'image-dependent' : 'text-complete',
  images,
  turns: [
    {
      story: 'Sally puts the ball in the basket.',
      feedback: '',
      question: 'Where is the ball?',
      image: Object.keys(images)[0] ?? '',
      answer: 'basket',
    },
  ],
});

describe('duplicate ids', () => {
  it('MCQ loaders (ToMATO): the same item id twice is refused, naming both places', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dup-'));
    const records = JSON.parse(readFileSync(join(DATA, 'tomato', 'tomato_fb.json'), 'utf8'));
    mkdirSync(join(dir, 'tomato'));
    writeFileSync(join(dir, 'tomato', 'tomato_fb.json'), JSON.stringify([...records, records[0]]));
    await expect(load('tomato', dir)).rejects.toThrow(
      new RegExp(
        `suite tomato: the item id "${records[0].q_id}" is given twice, at tomato_fb\\.json \\[item 0\\] and at tomato_fb\\.json \\[item ${records.length}\\]`,
      ),
    );
  });

  it('the generic mcq loader names both lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dup-'));
    const file = join(dir, 'q.jsonl');
    const row = (id: string) => JSON.stringify({ id, q: 'Where?', options: ['a', 'b'], answer: 'A' });
    writeFileSync(file, [row('x'), row('y'), row('x')].join('\n'));
    await expect(
      createRegistry()
        .suite('mcq')
        .load({
          data: file,
          seed: 0,
          fields: { id: 'id', question: 'q', options: 'options', answer: 'answer', defaultCategory: 'belief' },
        }),
    ).rejects.toThrow(/q\.jsonl:3: duplicate id "x"/);
  });

  it('StoryTurn: a story id given twice is refused, naming both lines', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dup-'));
    const file = join(dir, 's.jsonl');
    writeFileSync(file, [story('s1'), story('s2'), story('s1')].map((s) => JSON.stringify(s)).join('\n'));
    await expect(load('storyturn', file)).rejects.toThrow(/s\.jsonl:3: duplicate story id "s1" \(first at line 1\)/);
  });

  it('EnactToM: a task id given twice is refused, naming both places', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dup-'));
    const tasks = JSON.parse(readFileSync(join(DATA, 'enacttom', 'sample_tasks.json'), 'utf8'));
    const list = Array.isArray(tasks) ? tasks : [tasks];
    writeFileSync(join(dir, 'tasks.json'), JSON.stringify([...list, list[0]]));
    await expect(load('enacttom', join(dir, 'tasks.json'))).rejects.toThrow(
      new RegExp(`tasks\\.json: duplicate task id "${list[0].task_id}" at \\[0\\] and at \\[${list.length}\\]`),
    );
  });
});

describe('field types', () => {
  const fields = { id: 'id', question: 'q', options: 'options', answer: 'answer', defaultCategory: 'belief' as const };
  const mcq = (file: string) => createRegistry().suite('mcq').load({ data: file, seed: 0, fields });

  it('the generic mcq loader refuses a record, question or option that is not text (was "[object Object]"), naming where', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-types-'));
    const write = (name: string, value: unknown) => {
      writeFileSync(join(dir, name), typeof value === 'string' ? value : JSON.stringify(value));
      return join(dir, name);
    };
    const good = { id: 'a', q: 'Where?', options: ['the box', 'the bag'], answer: 'A' };
    // A JSON list with null in it: was "Cannot read properties of null".
    await expect(mcq(write('nulls.json', [good, null]))).rejects.toThrow(/nulls\.json: record 2 of the list is null, not an object/);
    await expect(
      mcq(write('q.jsonl', `${JSON.stringify(good)}\n${JSON.stringify({ ...good, id: 'b', q: { text: 'x' } })}`)),
    ).rejects.toThrow(/q\.jsonl:2: field "q" is an object, not text/);
    await expect(mcq(write('o.jsonl', JSON.stringify({ ...good, options: ['the box', null] })))).rejects.toThrow(
      /o\.jsonl:1: option 2 of field "options" is null, not text/,
    );
    await expect(mcq(write('a.jsonl', JSON.stringify({ ...good, answer: ['A'] })))).rejects.toThrow(
      /a\.jsonl:1: field "answer" is a list, not text/,
    );
    // Numbers and booleans are text as CSV and Parquet cells are.
    const n = await mcq(write('n.jsonl', JSON.stringify({ ...good, id: 7, options: [1, 2], answer: 1 })));
    expect(n.items[0]).toMatchObject({ id: '7', answer: '2' });
    await expect(mcq(write('broken.parquet', 'PAR1 not parquet at all'))).rejects.toThrow(/broken\.parquet: not a readable Parquet file/);
  });
});

describe('StoryTurn images', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mindscope-img-'));
  const data = join(dir, 'data');
  mkdirSync(join(data, 'pictures'), { recursive: true });
  writeFileSync(join(data, 'pictures', 'apple.png'), PNG);
  writeFileSync(join(data, 'pictures', 'fake.png'), 'OPENAI_API_KEY=sk-secret\n');
  writeFileSync(join(dir, 'outside.png'), PNG);
  symlinkSync(join(dir, 'outside.png'), join(data, 'pictures', 'link.png'));
  const file = join(data, 's.jsonl');
  const attempt = (path: string) => {
    writeFileSync(file, JSON.stringify(story('s1', { img01: path })));
    return readStoryTurns(file);
  };

  it('accepts a real image inside the data folder, and data: URIs holding an image', async () => {
    const [s] = await attempt('pictures/apple.png');
    expect(s!.images.img01).toBe(`data:image/png;base64,${PNG.toString('base64')}`);
    expect(s!.imageFiles).toEqual({ img01: 'pictures/apple.png' });
    await expect(attempt(applePicture('small'))).resolves.toHaveLength(1);
  });

  it('refuses paths out of the folder, links out of it, missing files and files that are no images', async () => {
    await expect(attempt('../outside.png')).rejects.toThrow(
      /s\.jsonl:1: images\.img01: the image "\.\.\/outside\.png" is outside the data folder/,
    );
    await expect(attempt('/etc/passwd')).rejects.toThrow(/s\.jsonl:1: images\.img01: the image "\/etc\/passwd" is outside the data folder/);
    await expect(attempt(join(data, 'pictures', 'apple.png'))).rejects.toThrow(
      /images\.img01: the image ".*apple\.png" is outside the data folder/,
    );
    await expect(attempt('pictures/link.png')).rejects.toThrow(
      /images\.img01: the image "pictures\/link\.png" links outside the data folder/,
    );
    await expect(attempt('pictures/fake.png')).rejects.toThrow(
      /s\.jsonl:1: images\.img01: "pictures\/fake\.png" is not a PNG, JPEG, GIF or WebP image/,
    );
    await expect(attempt('pictures/none.png')).rejects.toThrow(
      /images\.img01: cannot read the image "pictures\/none\.png" \(no such file\)/,
    );
    await expect(attempt(`data:image/png;base64,${Buffer.from('not an image').toString('base64')}`)).rejects.toThrow(
      /images\.img01: the data: URI is not a base64 PNG, JPEG, GIF or WebP image/,
    );
  });

  it('a table of turns names the image column and line', async () => {
    const csv = join(data, 't.csv');
    writeFileSync(
      csv,
      'story_id,turn,story,feedback,question,image,answer,mental_state,setting,image_path\nx1,1,Three apples.,,Which is biggest?,img01,big,belief,image-dependent,../outside.png\n',
    );
    await expect(readStoryTurns(csv)).rejects.toThrow(
      /t\.csv:2: column "image_path": the image "\.\.\/outside\.png" is outside the data folder/,
    );
    cpSync(join(data, 'pictures', 'apple.png'), join(data, 'ok.png'));
  });
});

describe('StoryTurn images are read, checked and hashed once', () => {
  const OTHER = Buffer.from(applePicture('small').split(',')[1]!, 'base64');
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.stop());

  /** A data folder with s.jsonl naming pictures/photo.png (holding `bytes`), and a real PNG outside it. */
  const folder = (bytes: Buffer) => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-img-once-'));
    mkdirSync(join(dir, 'data', 'pictures'), { recursive: true });
    writeFileSync(join(dir, 'data', 'pictures', 'photo.png'), bytes);
    writeFileSync(join(dir, 'outside.png'), OTHER);
    writeFileSync(join(dir, 'data', 's.jsonl'), `${JSON.stringify(story('s1', { img01: 'pictures/photo.png' }))}\n`);
    return dir;
  };

  it('sends the bytes checked at load, even when the file is swapped for a link out of the folder during the run', async () => {
    const dir = folder(PNG);
    const photo = join(dir, 'data', 'pictures', 'photo.png');
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({
        store,
        suites: ['storyturn'],
        data: join(dir, 'data', 's.jsonl'),
        models: [`openai-compatible:${server.url}/v1#ok`],
        images: true,
        runId: 'swap',
        // The run has loaded and checked its items; no call is made yet.
        onEvent: (e) => {
          if (e.type !== 'start') return;
          rmSync(photo);
          symlinkSync(join(dir, 'outside.png'), photo);
        },
      });
      const sent = JSON.stringify((await server.stats()).bodies.map((b) => b.body));
      expect(sent).toContain(`data:image/png;base64,${PNG.toString('base64')}`);
      expect(sent).not.toContain(OTHER.toString('base64'));
    } finally {
      await store.close();
    }
  });

  it('storyturn review writes the image paths back, not the bytes read from them, as JSON Lines', async () => {
    const dir = folder(PNG);
    const file = join(dir, 'data', 's.jsonl');
    const r = await runCli(['storyturn', 'review', file, '--id', 's1', '--reviewer', 'ana', '--approve']);
    expect(r.stderr).toBe('');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ id: 's1', images: { img01: 'pictures/photo.png' }, reviews: [{ reviewer: 'ana' }] });
  });

  it("an item's hash follows its image's bytes", async () => {
    const dir = folder(PNG);
    const hashOf = async () => itemHash((await load('storyturn', join(dir, 'data', 's.jsonl'))).items[0]!);
    const first = await hashOf();
    expect(await hashOf()).toBe(first);
    writeFileSync(join(dir, 'data', 'pictures', 'photo.png'), OTHER);
    expect(await hashOf()).not.toBe(first);
  });
});
