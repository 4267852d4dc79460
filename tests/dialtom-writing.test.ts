// DialToM item writing with the paper's prompts (Appendices K.1-K.2), against a real local model
// server (tests/servers/dialtom-writer-server.mjs): the prompts sent are the paper's words with
// the window filled in; replies that do not read are answered and asked again; the options file
// builds items whose counterfactual profile is the generated contrary states and whose
// summary+states variant carries the summary; summaries of 50 words or more are asked again,
// then refused; released items get summaries the dialtom-prospective suite reads; everything is
// cached (a second run asks the server nothing).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DIALTOM_STATES,
  loadDialtom,
  loadWritingPrompt,
  readCounterfactual,
  readStateAnswers,
  readSummary,
  readTrajectory,
  writingPrompts,
} from '../src/studies/dialtom/index.js';
import { runCli } from './helpers/run-cli.js';

const SERVER = fileURLToPath(new URL('./servers/dialtom-writer-server.mjs', import.meta.url));
const FIXTURES = join(__dirname, 'fixtures', 'data');

interface Stats {
  requests: number;
  byModel: Record<string, number>;
  prompts: Array<{ model: string; messages: Array<{ role: string; content: string }> }>;
}

// The paper's prompts as it prints them (running text), placeholders in its own names.
const K2_STATES =
  'Assume you are a {recipient role} discussing with a skilled {initiator role} {topic type}. Your current task is to think about your own mental states at the current state based on the provided context and conversation. The current state of the {session type} session is as follows: {conversation} You need to infer your own mental states from your perspective as the {recipient role}. Answer the following questions for the {mental state} state. Generate 4 different answers for the mental state provided below in the form of questions. Your first answer will always represent your most accurate answer. The other answers should be wrong but confusion inducing. {mental state}: {mental state question} Use the following prefix format for {mental state}: {mental state}: {mental state prefix format}';
const K2_TRAJECTORY =
  'Given the following conversation between two agents: {conversation} Here, the {recipient role} has the following mental state: {correct mental state} The two future utterances after this conversation based on the above mental state are: {correct dialogue trajectory} Generate an alternative conversation direction, each direction should follow the same format as the utterances provided just before, for the following mental state: {distractor mental states} This conversation direction should be objectively different from the original utterances provided. strictly follow the format given below for generating the alternative conversation direction. Do not generate any other text or explanation, just the alternative conversation direction. Format:';
const K2_COUNTERFACTUAL =
  'You are an expert in Theory of Mind reasoning and generating counterfactual statements. Task: You will be provided with an excerpt from a conversation along with the current {state} state of {recipient role}. You need to generate a counterfactual mental state that is obviously not true at all given the current conversation. It should be CONTRARY to the provided state. Conversation context: {conversation} Mental State: {current mental state} Instruction: Output only the counterfactual. Do not add explanations or other verbosity. Your output should strictly follow the structure "{mental state prefix format}". NO FORMATTING NEEDS TO BE DONE. Counterfactual:';
const K1_SUMMARY = 'Generate a summary of the conversation context in less than 50 words. Conversation Context: {conversation}';

const fill = (text: string, values: Record<string, string>) => text.replace(/\{([^}]+)\}/g, (m, k: string) => values[k] ?? m);
const flat = (text: string) => text.replace(/\n/g, ' ');

function dialogue(id: string): { id: string; domain: string; topic: string; task_desc: string; turns: string[] } {
  const turns = Array.from(
    { length: 40 },
    (_, i) => `${i % 2 ? 'client' : 'counselor'}: this is line ${i} of dialogue ${id} with some more words in it`,
  );
  return { id, domain: 'MI', topic: 'on weight loss', task_desc: 'Counseling Session', turns };
}

describe('reading the writer’s replies', () => {
  it('takes four prefixed answers, a continuation of the format’s length, a prefixed counterfactual and a summary under 50 words', () => {
    const reply = '1. **Belief:** I believe A.\n2) Belief: I believe B.\n- I believe C.\nSome comment\n(d) "I believe D."';
    expect(readStateAnswers(reply, 'Belief', 'I believe')).toEqual({
      ok: ['I believe A.', 'I believe B.', 'I believe C.', 'I believe D.'],
    });
    expect(readStateAnswers('I believe A.\nI believe A.\nI believe B.', 'Belief', 'I believe')).toEqual({
      problem:
        'The reply gives 2 distinct answer(s) starting with "I believe"; four are needed, one per line, the first your most accurate answer.',
    });
    expect(readTrajectory('Sure:\nclient: a\ncounselor: b\nclient: c', 2)).toEqual({ ok: 'client: a\ncounselor: b' });
    expect(readTrajectory('client: a', 4)).toMatchObject({ problem: expect.stringMatching(/gives 1 "speaker: text" line/) });
    expect(readCounterfactual('Counterfactual: Trust: I view the Counselor as cold.', 'Trust', 'I view the Counselor as')).toEqual({
      ok: 'I view the Counselor as cold.',
    });
    expect(readCounterfactual('You do not trust them.', 'Trust', 'I view the Counselor as')).toMatchObject({ problem: expect.any(String) });
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    expect(readSummary(`Summary: ${words(49)}`)).toEqual({ ok: words(49) });
    expect(readSummary(words(50))).toEqual({ problem: 'That summary has 50 words. Rewrite it in less than 50 words.' });
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dialtom-prompt-'));
    writeFileSync(join(dir, 'p.yaml'), 'placeholders: [conversation]\nuser: "Sum up {conversation} for {reader}"\n');
    expect(() => loadWritingPrompt(join(dir, 'p.yaml'), ['conversation'])).toThrow(/unknown placeholder \{reader\}/);
    expect(loadWritingPrompt(writingPrompts.summary, ['conversation']).placeholders).toEqual(['conversation']);
  });
});

describe('dialtom write and dialtom summarize against a local model server', () => {
  let child: ChildProcess;
  let url: string;
  const stats = async (): Promise<Stats> => (await fetch(`${url}/stats`)).json() as Promise<Stats>;
  beforeAll(async () => {
    child = spawn(process.execPath, [SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve) =>
      createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l).port)),
    );
    url = `http://127.0.0.1:${port}`;
  });
  afterAll(() => {
    child.kill('SIGTERM');
  });

  it("writes options with the paper's prompts, asks again when a reply does not read, and builds items from them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dialtom-write-'));
    writeFileSync(join(dir, 'dialogues.json'), JSON.stringify(['d1', 'd2', 'd3'].map(dialogue)));
    const args = [
      'dialtom',
      'write',
      '--dialogues',
      'dialogues.json',
      '--out',
      'options.json',
      '--model',
      `openai-compatible:${url}/v1#writer-short-once`,
    ];
    const r = await runCli([...args, '--db', 'w.db', '--json'], { cwd: dir });
    expect(r.code).toBe(0);
    // 9 windows; 6 state + 6 counterfactual + 1 summary calls each, 3 trajectory calls for the 6 windows with a continuation,
    // and one follow-up per window (Belief first gets two answers).
    expect(JSON.parse(r.stdout)).toMatchObject({ windows: 9, calls: 9 * 13 + 6 * 3 + 9, followUps: 9, refused: [] });
    const sent = (await stats()).prompts.filter((p) => p.model === 'writer-short-once');
    // The first prompt of window "d1, 0" that starts so and holds `text`.
    const first = (start: string, text = '') =>
      sent.find((p) => {
        const c = p.messages[0]!.content;
        return p.messages.length === 1 && c.startsWith(start) && c.includes('line 0 of dialogue d1') && c.includes(text);
      })!;
    const conversation = dialogue('d1').turns.slice(0, 14).join(' ');
    // The states prompt is the paper's text, the window filled in (roles as the released code writes them).
    const states = first('Assume you are a', 'for the Belief state.');
    expect(flat(states.messages[0]!.content)).toBe(
      fill(K2_STATES, {
        'recipient role': 'Client',
        'initiator role': 'Counselor',
        'topic type': 'on weight loss',
        'session type': 'Counseling',
        conversation,
        'mental state': 'Belief',
        'mental state question': 'What do you believe in?',
        'mental state prefix format': 'I believe',
      }),
    );
    // Asked again with what was wrong, after its own reply.
    const again = sent.find((p) => p.messages.length === 3)!;
    expect(again.messages[2]!.content).toBe(
      'The reply gives 2 distinct answer(s) starting with "I believe"; four are needed, one per line, the first your most accurate answer.',
    );
    const options = JSON.parse(readFileSync(join(dir, 'options.json'), 'utf8'));
    const w = options['d1, 0'];
    const truth = DIALTOM_STATES.map((s) => `${s}: ${w.true[s]}`).join(' ');
    const trajectory = first('Given the following conversation', `mental state:\nBelief: ${w.wrong.Belief[0]}\n`).messages[0]!.content;
    expect(flat(trajectory.split('\nFormat:\n')[0]!)).toBe(
      fill(K2_TRAJECTORY, {
        conversation,
        'recipient role': 'Client',
        'correct mental state': truth,
        'correct dialogue trajectory': dialogue('d1').turns.slice(14, 18).join(' '),
        'distractor mental states': DIALTOM_STATES.map((s) => `${s}: ${w.wrong[s][0]}`).join(' '),
      }).replace(/ Format:$/, ''),
    );
    // The format: the true continuation's speakers in order, the "{dialogue k}" slots as the paper prints them.
    expect(trajectory.split('\nFormat:\n')[1]).toBe(
      'counselor: {dialogue 1}\nclient: {dialogue 2}\ncounselor: {dialogue 3}\nclient: {dialogue 4}',
    );
    expect(flat(first('You are an expert in Theory of Mind reasoning and generating', 'current Belief state').messages[0]!.content)).toBe(
      fill(K2_COUNTERFACTUAL, {
        state: 'Belief',
        'recipient role': 'Client',
        conversation,
        'current mental state': w.true.Belief,
        'mental state prefix format': 'I believe',
      }),
    );
    expect(flat(first('Generate a summary').messages[0]!.content)).toBe(fill(K1_SUMMARY, { conversation }));
    expect(w.true.Trust).toMatch(/^I view the Counselor as trust answer 1/);
    expect(w.wrong.Belief).toHaveLength(3);
    expect(w.counterfactual.Belief).toBe(`I believe the opposite of: ${w.true.Belief.slice('I believe '.length)}`);
    expect(w.distractor_trajectories[2].split('\n')).toHaveLength(4);
    expect(w.summary.split(' ')).toHaveLength(12);
    // The last window has no continuation and so no trajectories.
    expect(options['d1, 2'].distractor_trajectories).toEqual(['', '', '']);
    // Built: the counterfactual profile is the generated contrary states, the summary variant carries the summary.
    const built = await runCli(['dialtom', 'build', '--dialogues', 'dialogues.json', '--options', 'options.json', '--out', 'built'], {
      cwd: dir,
    });
    expect(built.code).toBe(0);
    const cf = loadDialtom(join(dir, 'built'), 'counterfactual').items.find((i) => i.meta.dialogueId === 'd1, 0')!;
    expect(cf.meta.profile).toBe(DIALTOM_STATES.map((s) => `${s}: ${w.counterfactual[s]}`).join('\n'));
    const summarized = loadDialtom(join(dir, 'built', 'degraded', 'summary+states'), 'prospective').items.find(
      (i) => i.meta.dialogueId === 'd1, 0',
    )!;
    expect(summarized.meta.summary).toBe(w.summary);
    // Again: every reply from the call cache, the same file.
    const before = (await stats()).requests;
    const again2 = await runCli([...args.slice(0, 5), 'options2.json', ...args.slice(6), '--db', 'w.db'], { cwd: dir });
    expect(again2.code).toBe(0);
    expect((await stats()).requests).toBe(before);
    expect(readFileSync(join(dir, 'options2.json'), 'utf8')).toBe(readFileSync(join(dir, 'options.json'), 'utf8'));
  }, 60_000);

  it('adds summaries to released items (asking again over 50 words, refusing after the retries) that a run shows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dialtom-summarize-'));
    const windows = new Set(loadDialtom(FIXTURES, 'prospective').items.map((i) => `${i.meta.domain} ${i.meta.dialogueId}`)).size;
    const r = await runCli(
      [
        'dialtom',
        'summarize',
        '--data',
        FIXTURES,
        '--out',
        'summ',
        '--model',
        `openai-compatible:${url}/v1#summ-long`,
        '--db',
        's.db',
        '--json',
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    // 60 words, asked again, 20 words: two calls per window.
    expect(JSON.parse(r.stdout)).toMatchObject({
      items: 12,
      conversations: windows,
      calls: 2 * windows,
      followUps: windows,
      refused: [],
      leftOut: [],
    });
    const items = loadDialtom(join(dir, 'summ'), 'prospective').items;
    expect(items).toHaveLength(12);
    expect(
      items.every((i) => String(i.meta.summary).split(' ').length === 20 && i.payload.context.startsWith(String(i.meta.summary))),
    ).toBe(true);
    const run = await runCli(
      [
        'run',
        'dialtom-prospective',
        '--data',
        'summ',
        '--template',
        'dialtom-summary-states',
        '--model',
        `openai-compatible:${url}/v1#mcq`,
        '--db',
        'r.db',
        '--json',
      ],
      { cwd: dir },
    );
    expect(JSON.parse(run.stdout)).toMatchObject({ done: 12, failed: 0 });
    const shown = (await stats()).prompts.filter((p) => p.model === 'mcq').map((p) => p.messages.at(-1)!.content);
    expect(shown.some((p) => p.includes(`Conversation Context Summary:\n${items[0]!.meta.summary}\n`))).toBe(true);
    // A model that never gets under 50 words: refused after one follow-up, its items left out, and said so.
    const stubborn = await runCli(
      [
        'dialtom',
        'summarize',
        '--data',
        FIXTURES,
        '--out',
        'summ2',
        '--domain',
        'MI',
        '--retries',
        '1',
        '--model',
        `openai-compatible:${url}/v1#summ-stubborn`,
        '--db',
        's.db',
      ],
      { cwd: dir },
    );
    expect(stubborn.code).toBe(0);
    expect(stubborn.stdout).toMatch(
      /summary refused for MI window "5, 0" after 2 attempt\(s\): That summary has 60 words\. Rewrite it in less than 50 words\./,
    );
    expect(stubborn.stdout).toMatch(/left out \(no summary\): MI\/5, 0\/Knowledge/);
    expect(JSON.parse(readFileSync(join(dir, 'summ2', 'dialtom', 'data', 'MI_prospective_verified.json'), 'utf8'))).toEqual([]);
    const bad = await runCli(['dialtom', 'summarize', '--data', FIXTURES, '--out', 'x', '--model', 'm', '--prompt', 'states=s.yaml'], {
      cwd: dir,
    });
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--prompt expects NAME=FILE with NAME one of summary, got "states=s\.yaml"/);
  }, 60_000);
});
