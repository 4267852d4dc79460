// Loaders on small fixtures of the public data: category mappings, repairs, warnings, pairing and
// malformed-data handling (the published counts on the full files are in tests-shared/); and
// the bad inputs each loader must name by file and line.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { loadSuite, type Item } from '../src/index.js';
import type { McqPayload } from '../src/core/index.js';
import { loadGenericMcq } from '../src/suites/index.js';
import { COGTOM_FIELDS } from '../src/studies/literal/index.js';
import { NONE_OF_THE_ABOVE } from '../src/studies/dialtom/index.js';

// Small subsets of the public data (tests/fixtures/data/README.md); full releases: tests-shared/.
const DATA = join(__dirname, 'fixtures', 'data');
const tmp = mkdtempSync(join(tmpdir(), 'mindscope-loaders-'));

function byCategory(items: Item[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of items) out[i.category] = (out[i.category] ?? 0) + 1;
  return out;
}

const load = (suite: string, data = DATA) => loadSuite(suite, { data, seed: 0 });

describe('ToMBench', () => {
  it('reads every fixture line, maps each ability prefix (both spellings) to its category, repairs "A. "', async () => {
    const { items, warnings } = await load('tombench');
    // 44 lines of 8 task files (tests/fixtures/data/README.md); the full release is checked in tests-shared/.
    expect(items).toHaveLength(44);
    expect(byCategory(items)).toEqual({ belief: 8, intention: 2, desire: 4, emotion: 4, knowledge: 16, 'non-literal': 10 });
    const prefixes = new Set(items.map((i) => String(i.meta.originalLabel).split(':')[0]));
    expect(prefixes).toContain('Non-Literal Communication');
    expect(prefixes).toContain('Non-literal communication');
    expect(
      items.filter((i) => /^Non-literal communication:/i.test(String(i.meta.originalLabel))).every((i) => i.category === 'non-literal'),
    ).toBe(true);
    // Scalar Implicature line 4 has a trailing space in its ability; it is read trimmed.
    expect(items.find((i) => i.id === 'Scalar Implicature Test:2@4')!.ability).toBe('Knowledge: Information-knowledge links');
    // INDEX repeats within a file (1, 2, 1, 2): ids stay unique by adding the line.
    expect(new Set(items.map((i) => i.id)).size).toBe(44);
    expect(items.filter((i) => i.meta.task === 'Ambiguous Story Task').map((i) => i.id)).toEqual([
      'Ambiguous Story Task:1',
      'Ambiguous Story Task:2',
      'Ambiguous Story Task:1@3',
      'Ambiguous Story Task:2@4',
    ]);
    // The malformed answer "A. " (Knowledge-Attention Links line 11) is repaired and reported, naming file and line.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Knowledge-Attention Links\.jsonl:11: answer "A\. " read as "A"$/);
    const repaired = items.find((i) => i.meta.answerRepaired === 'A. ')!;
    expect(repaired.id).toBe('Knowledge-Attention Links:1@11');
    expect(repaired.answer).toBe((repaired.payload as McqPayload).options[0]);
    // Two-option tasks (empty OPTION-C/D: Faux-pas lines 1 and 4, Strange Story lines 1, 3, 157) keep two options.
    const two = items.filter((i) => (i.payload as McqPayload).options.length === 2).map((i) => i.id);
    expect(two).toEqual([
      'Faux-pas Recognition Test:1',
      'Faux-pas Recognition Test:4',
      'Strange Story Task:1',
      'Strange Story Task:1@3',
      'Strange Story Task:1@5',
    ]);
    expect(items.every((i) => [2, 4].includes((i.payload as McqPayload).options.length))).toBe(true);
    expect(items[0]!.meta.originalLabel).toMatch(/^[A-Z][\w-]+(?: [\w-]+)*: /);
  });
});

describe('other literal suites', () => {
  it('ToMATO false-belief file', async () => {
    const { items } = await load('tomato');
    // Two items of each mental state in the fixture.
    expect(items).toHaveLength(10);
    expect(byCategory(items)).toEqual({ belief: 2, knowledge: 2, desire: 2, emotion: 2, intention: 2 });
    expect(items.every((i) => (i.payload as McqPayload).options.length === 4)).toBe(true);
    expect(items.every((i) => i.category === String(i.meta.originalLabel))).toBe(true);
    expect(new Set(items.map((i) => i.id)).size).toBe(10);
  });

  it('DialToM: retrospective, prospective and easy pair up; counterfactual with None of the above', async () => {
    const retro = (await load('dialtom-retrospective')).items;
    const pro = (await load('dialtom-prospective')).items;
    const easy = (await load('dialtom-prospective-easy')).items;
    const cf = await load('dialtom-counterfactual');
    // Four items of each domain and task in the fixture.
    expect([retro.length, pro.length, easy.length]).toEqual([12, 12, 12]);
    expect(retro.filter((i) => i.meta.domain === 'MI')).toHaveLength(4);
    expect(pro.filter((i) => i.meta.domain === 'MI')).toHaveLength(4);
    expect(byCategory(retro).trust).toBe(3);
    // The category is the attribute asked.
    expect(
      retro.every(
        (i) =>
          i.category ===
          ({ Desires: 'desire', Intentions: 'intention', Emotions: 'emotion' }[String(i.meta.state)] ?? String(i.meta.state).toLowerCase()),
      ),
    ).toBe(true);
    // The easy set asks the same (dialogue, state) pairs with other distractors.
    expect(easy.map((i) => i.id)).toEqual(pro.map((i) => i.id));
    expect(easy.map((i) => i.answer)).toEqual(pro.map((i) => i.answer));
    expect(cf.items.map((i) => i.id)).toEqual(pro.map((i) => i.id));
    expect(cf.warnings).toEqual([]);
    expect(cf.items.every((i) => i.answer === NONE_OF_THE_ABOVE && (i.payload as McqPayload).options.length === 5)).toBe(true);
    // The right continuation is not always in the same place.
    const positions = new Set(pro.map((i) => (i.payload as McqPayload).answerIndex));
    expect(positions.size).toBe(4);
    // Prospective items hide the dialogue: the context is the profile only.
    expect((pro[0]!.payload as McqPayload).context).toMatch(
      /^The (client|seeker|persuadee) in this conversation has the following mental state/,
    );
    expect(pro.every((i) => !(i.payload as McqPayload).context.includes('\nclient:'))).toBe(true);
  });

  it('Hi-ToM, ToMi, BigToM, OpenToM, MMToM-QA', async () => {
    const hitom = (await load('hitom')).items;
    // One record per prompting style x order 0-4 x deception; the suite takes the VP style.
    expect(hitom).toHaveLength(10);
    expect(byCategory(hitom)).toEqual({ control: 2, belief: 8 });
    expect(hitom.map((i) => Number(i.meta.order)).sort()).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4, 4]);
    expect(hitom.every((i) => (i.payload as McqPayload).options.length === 15)).toBe(true);
    // The deception flag is a JSON boolean in the release: half of the fixture's stories deceive.
    expect(hitom.filter((i) => i.meta.deception === true)).toHaveLength(5);
    expect(hitom.filter((i) => i.id.includes('-dec')).length).toBe(5);
    const tomi = (await load('tomi')).items;
    expect(tomi).toHaveLength(60);
    // first and second order are beliefs; reality and memory questions are controls.
    expect(byCategory(tomi)).toEqual({ control: 20, belief: 40 });
    expect(tomi.every((i) => (i.category === 'control') === /^(reality|memory)/.test(i.ability ?? ''))).toBe(true);
    expect(tomi.every((i) => (i.payload as McqPayload).options.every((o) => !['kitchen', 'garden', 'bathroom'].includes(o)))).toBe(true);
    const bigtom = (await load('bigtom')).items;
    expect(bigtom).toHaveLength(4 * 6);
    expect(new Set(bigtom.map((i) => i.meta.originalLabel)).size).toBe(6);
    const opentom = await load('opentom');
    // Every question in the fixture's question files is either an item or a warning.
    const { readdirSync, readFileSync } = await import('node:fs');
    const questions = readdirSync(join(DATA, 'opentom'))
      .filter((f) => /^(attitude|location_|multihop_).*\.json$/.test(f))
      .reduce((n, f) => n + Object.values(JSON.parse(readFileSync(join(DATA, 'opentom', f), 'utf8')) as unknown[][]).flat().length, 0);
    expect(opentom.items.length + opentom.warnings.length).toBe(questions);
    expect(opentom.warnings).toHaveLength(1);
    expect(opentom.warnings[0]).toMatch(
      /location_fg_fo_new\.json \[71136438 0\]: answer "center of dining table" is not among the options/,
    );
    expect(byCategory(opentom.items)).toEqual({ emotion: 4, belief: questions - 5 });
    const mmtom = (await load('mmtom-qa')).items;
    // Two questions of each type: 1.1-1.3 ask beliefs, 2.1-2.4 goals.
    expect(mmtom).toHaveLength(14);
    expect(byCategory(mmtom)).toEqual({ belief: 6, desire: 8 });
  });

  it('CogToM from a file in its documented fields', async () => {
    const file = join(tmp, 'cogtom.jsonl');
    const rows = [
      {
        scene: 'Anna puts the ball in the box and leaves.',
        question: 'Where will Anna look?',
        options: { A: 'box', B: 'basket', C: 'bag', D: 'drawer' },
        answer: 'A',
        category: 'False Belief',
        subcategory: 'location',
      },
      {
        scene: 'Tom frowns at the gift.',
        question: 'How does Tom feel?',
        options: { A: 'happy', B: 'disappointed', C: 'proud', D: 'calm' },
        answer: 'B',
        category: 'Emotion',
        subcategory: 'hidden',
      },
    ];
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n'));
    const { items } = await loadSuite('cogtom', { data: file, seed: 0 });
    expect(items.map((i) => [i.category, i.answer, i.ability])).toEqual([
      ['belief', 'box', 'location'],
      ['emotion', 'disappointed', 'hidden'],
    ]);
    writeFileSync(file, JSON.stringify({ ...rows[0], category: 'Astrology' }));
    await expect(loadSuite('cogtom', { data: file, seed: 0 })).rejects.toThrow(
      /cogtom\.jsonl:1: category "Astrology" maps to no ATOMS category/,
    );
  });

  it('generic MCQ from CSV and Parquet with a field mapping', async () => {
    const map = { id: 'qid', context: 'story', question: 'q', options: ['o1', 'o2', 'o3'], answer: 'label', category: 'cat' };
    const csv = join(tmp, 'items.csv');
    writeFileSync(
      csv,
      'qid,story,q,o1,o2,o3,label,cat\nx1,"A story, with a comma",Where?,box,bag,jar,B,belief\nx2,Another,Why?,a,b,c,0,desire\n',
    );
    const fromCsv = (await loadGenericMcq(csv, map)).items;
    expect(fromCsv.map((i) => [i.id, i.answer, i.category])).toEqual([
      ['x1', 'bag', 'belief'],
      ['x2', 'a', 'desire'],
    ]);
    const pq = join(tmp, 'items.parquet');
    writeFileSync(
      pq,
      Buffer.from(
        parquetWriteBuffer({
          columnData: [
            { name: 'qid', data: ['p1'], type: 'STRING' },
            { name: 'story', data: ['S'], type: 'STRING' },
            { name: 'q', data: ['Q?'], type: 'STRING' },
            { name: 'o1', data: ['yes'], type: 'STRING' },
            { name: 'o2', data: ['no'], type: 'STRING' },
            { name: 'o3', data: ['maybe'], type: 'STRING' },
            { name: 'label', data: ['no'], type: 'STRING' },
            { name: 'cat', data: ['knowledge'], type: 'STRING' },
          ],
        }),
      ),
    );
    expect((await loadGenericMcq(pq, map)).items[0]).toMatchObject({ id: 'p1', answer: 'no', category: 'knowledge' });
  });
});

describe('bad input names the file and line', () => {
  it('malformed JSON lines, missing fields, answers not among the options, missing data', async () => {
    const dir = join(tmp, 'bad-tombench');
    const good = {
      '能力\nABILITY': 'Belief: x',
      '序号\nINDEX': 1,
      STORY: 's',
      QUESTION: 'q',
      'OPTION-A': 'a',
      'OPTION-B': 'b',
      'OPTION-C': 'c',
      'OPTION-D': 'd',
      '答案\nANSWER': 'B',
    };
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'Task.jsonl');
    writeFileSync(file, `${JSON.stringify(good)}\n{"broken": \n`);
    await expect(load('tombench', dir)).rejects.toThrow(/Task\.jsonl:2: malformed JSON line/);
    writeFileSync(file, `${JSON.stringify(good)}\n${JSON.stringify({ ...good, STORY: undefined })}\n`);
    await expect(load('tombench', dir)).rejects.toThrow(/Task\.jsonl:2: missing field "STORY"/);
    writeFileSync(file, `${JSON.stringify({ ...good, '答案\nANSWER': 'E' })}\n`);
    await expect(load('tombench', dir)).rejects.toThrow(/Task\.jsonl:1: answer "E" is not one of A-D/);
    await expect(load('tombench', join(tmp, 'nowhere'))).rejects.toThrow(/nowhere: no such file or directory/);
    // Without --data a public suite is fetched; here the mirror is a closed local port.
    const offline = { MINDSCOPE_CACHE: join(tmp, 'cache'), MINDSCOPE_DATA_MIRROR: 'http://127.0.0.1:9' };
    await expect(loadSuite('tombench', { seed: 0, env: offline })).rejects.toThrow(/127\.0\.0\.1:9\/tombench\/.*cannot fetch.*--data/);
    await expect(loadSuite('cogtom', { seed: 0 })).rejects.toThrow(/suite cogtom reads your own data files: give them with --data/);
    await expect(loadSuite('no-such-suite', { seed: 0 })).rejects.toThrow(/unknown suite "no-such-suite"; known suites: tombench/);
    const csv = join(tmp, 'bad.csv');
    writeFileSync(csv, 'q,o1,o2,label\nWhere?,box,bag,jar\n');
    await expect(loadGenericMcq(csv, { question: 'q', options: ['o1', 'o2'], answer: 'label', defaultCategory: 'belief' })).rejects.toThrow(
      /bad\.csv:2: answer "jar" is not among the options/,
    );
    writeFileSync(csv, 'q,o1,o2,label\nWhere?,box,bag\n');
    await expect(loadGenericMcq(csv, COGTOM_FIELDS)).rejects.toThrow(/bad\.csv:2: row has 3 fields, the header has 4/);
  });

  it('DialToM dialogue files with empty turns', async () => {
    const dir = join(tmp, 'dialtom', 'data');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    const attrs = ['Belief', 'Desires', 'Intentions', 'Emotions', 'Knowledge', 'Trust'];
    const rec = {
      id: '1, 0',
      ctx: ['client: hi', '  '],
      state: 'Belief',
      correct_option: Object.fromEntries(attrs.map((a) => [a, 'A'])),
      options: Object.fromEntries(attrs.map((a) => [a, { A: `${a} a`, B: `${a} b` }])),
    };
    writeFileSync(join(dir, 'MI_retrospective_verified.json'), JSON.stringify([rec]));
    await expect(load('dialtom-retrospective', join(tmp, 'dialtom'))).rejects.toThrow(
      /MI_retrospective_verified\.json \[item 0\]: turn 1 of "ctx" is empty/,
    );
  });
});

describe('benign variants load, malformed files are refused with file and line (issue 10, item 2)', () => {
  const fields = { question: 'question', options: 'choices', answer: 'answerKey', id: 'id', defaultCategory: 'belief' as const };
  it('accepts a UTF-8 byte-order mark, maps ARC-style choices, reads boolean matrix columns', async () => {
    const bom = join(tmp, 'bom.jsonl');
    const line = { id: 'q1', question: 'Where will Sally look?', choices: { text: ['basket', 'box'], label: ['A', 'B'] }, answerKey: 'A' };
    writeFileSync(bom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${JSON.stringify(line)}\n`)]));
    const { items } = await loadGenericMcq(bom, fields, 'mcq');
    expect((items[0]!.payload as McqPayload).options).toEqual(['basket', 'box']);
    expect(items[0]!.answer).toBe('basket');
    // Numeric ARC labels map the answer key through the label list.
    const numeric = join(tmp, 'arc-numeric.jsonl');
    writeFileSync(numeric, `${JSON.stringify({ ...line, choices: { text: ['x', 'y', 'z'], label: ['1', '2', '3'] }, answerKey: '3' })}\n`);
    expect((await loadGenericMcq(numeric, fields, 'mcq')).items[0]!.answer).toBe('z');
    const { readMatrixCsv } = await import('../src/store/index.js');
    const csv = join(tmp, 'bool.csv');
    writeFileSync(csv, '\ufeffsuite,item_id,category,original_label,m1,m2\ns,i1,belief,x,True,false\ns,i2,belief,x,FALSE,1\n');
    expect(readMatrixCsv(csv).cells).toEqual([
      [1, 0],
      [0, 1],
    ]);
  });

  it('refuses an empty file, invalid UTF-8 (naming the line), and a suite that loads no item', async () => {
    const empty = join(tmp, 'empty.jsonl');
    writeFileSync(empty, '\n  \n');
    await expect(loadGenericMcq(empty, fields, 'mcq')).rejects.toThrow(/empty\.jsonl: the file is empty/);
    const bad = join(tmp, 'latin1.jsonl');
    writeFileSync(
      bad,
      Buffer.concat([
        Buffer.from('{"id":"a","question":"ok","choices":["x","y"],"answerKey":"A"}\n'),
        Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d, 0x0a]),
      ]),
    );
    await expect(loadGenericMcq(bad, fields, 'mcq')).rejects.toThrow(/latin1\.jsonl:2: is not valid UTF-8/);
    const dir = mkdtempSync(join(tmp, 'tombench-empty-'));
    writeFileSync(join(dir, 'Task.jsonl'), '[]\n');
    await expect(load('tombench', dir)).rejects.toThrow();
    const list = join(tmp, 'none.json');
    writeFileSync(list, '[]');
    await expect(loadSuite('mcq', { data: list, seed: 0, fields })).rejects.toThrow(
      /suite mcq loaded no items from .*none\.json \(--allow-empty runs it anyway\)/,
    );
    expect((await loadSuite('mcq', { data: list, seed: 0, fields, allowEmpty: true })).items).toEqual([]);
  });
});
