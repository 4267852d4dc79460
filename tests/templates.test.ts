// Prompt templates per suite and the published prompts shipped as named templates (ToMBench,
// ToMATO, DialToM K.3/K.4). The expected prompts are written out here from the benchmarks'
// own code (ToMBench prompts.py + run_api.py, ToMATO run_local_llm.py, DialToM benchmark.py and
// counterfactual_test.py), independently of the YAML files, and compared byte for byte with
// what a run sends.

import { collect } from '../src/store/index.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite, openStore, parseRunSpec, runIdentity, runIdOf, type Item } from '../src/index.js';
import { namedFiles, type McqPayload } from '../src/core/index.js';
import { buildMcqMessages, createMcqTask, extractAnswer, loadMcqTemplate, presentOptions, templateFile } from '../src/protocols/index.js';
import { evaluate } from './helpers/evaluate.js';
import { runCli } from './helpers/run-cli.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'data');
const ctx = { seed: 0, replicate: 0 } as never;

async function items(suite: string): Promise<Item<McqPayload>[]> {
  return (await loadSuite(suite, { data: FIXTURES, seed: 0 })).items as Item<McqPayload>[];
}

/** The user message a template gives an item, options in source order. */
function userPrompt(name: string, item: Item<McqPayload>, trace?: string): { system?: string; user: string } {
  const messages = buildMcqMessages(item, presentOptions(item, ctx, false), loadMcqTemplate(name), trace);
  const system = messages.find((m) => m.role === 'system')?.content as string | undefined;
  return { ...(system ? { system } : {}), user: messages.at(-1)!.content as string };
}

const ROLES: Record<string, [string, string]> = {
  MI: ['Counselor', 'Client'],
  ESC: ['Supporter', 'Seeker'],
  PFG: ['Persuader', 'Persuadee'],
};
const letters = 'ABCDE';

describe('named templates', () => {
  it('ship in the package and load by name; an unknown name lists the built-in ones', () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
    expect(pkg.files).toContain('templates');
    for (const name of namedFiles('template')) expect(loadMcqTemplate(name).user.length).toBeGreaterThan(20);
    expect(() => templateFile('tombnech')).toThrow(/template "tombnech": no such file or built-in template \(built-in: tombench, tomato/);
  });

  it('ToMBench: its system prompt, [Story]/[Question]/[Candidate Answers], and its reading of [[X]]', async () => {
    const item = (await items('tombench'))[0]!;
    const raw = JSON.parse(readFileSync(join(FIXTURES, 'tombench', 'Ambiguous Story Task.jsonl'), 'utf8').split('\n')[0]!);
    const opts = ['A', 'B', 'C', 'D'].map((l) => String(raw[`OPTION-${l}`]).replace(`${l}. `, ''));
    const expected = `[Story]\n${raw.STORY}\n\n[Question]\n${raw.QUESTION}\n\n[Candidate Answers]\nA. ${opts[0]}\nB. ${opts[1]}\nC. ${opts[2]}\nD. ${opts[3]}`;
    const p = userPrompt('tombench', item);
    expect(p.user).toBe(expected);
    expect(p.system).toMatch(/^Below is a multiple-choice question with a story and serveral answer options\./);
    expect(p.system).toContain(`please randomly output one of "[[A]]", "[[B]]", "[[C]]", or "[[D]]";\n(3) Please only output`);
    const patterns = loadMcqTemplate('tombench').answerPatterns;
    const options = presentOptions(item, ctx, false);
    // get_results.py: "[[A]]" anywhere wins over "[[B]]" (label order), both over "[C]".
    expect(extractAnswer('I think [[B]]... no wait, [[A]]', options, patterns)).toEqual({ label: 'A', method: 'answer-tag' });
    expect(extractAnswer('[C] or [[D]]', options, patterns)).toEqual({ label: 'D', method: 'answer-tag' });
    expect(extractAnswer('[[B]]', options)).toEqual({ label: null, method: 'none' });
  });

  it('ToMATO: "# Transcript " headers with their trailing space and [X] options', async () => {
    const item = (await items('tomato'))[0]!;
    const raw = JSON.parse(readFileSync(join(FIXTURES, 'tomato', 'tomato_fb.json'), 'utf8'))[0];
    let inp = `# Transcript \n${raw.conversation}\n\n# Question \n${raw.q}\n\n# Options \n`;
    inp += `[A] ${raw.a0}\n[B] ${raw.a1}\n[C] ${raw.a2}\n[D] ${raw.a3}\n`;
    const p = userPrompt('tomato', item);
    expect(p.user).toBe(inp);
    expect(p.system).toBe(
      'You are an expert at understanding human communication. Please leverage the information provided and choose the most probable answer to the question from the options. Output your final answer by strictly following this format: [A], [B], [C], or [D]',
    );
    expect(extractAnswer('Considering it all: [C]', presentOptions(item, ctx, false), loadMcqTemplate('tomato').answerPatterns)).toEqual({
      label: 'C',
      method: 'answer-tag',
    });
  });

  it('DialToM retrospective: roles, session, topic and state from the item, as benchmark.py writes them', async () => {
    const all = await items('dialtom-retrospective');
    expect(all.length).toBeGreaterThan(6);
    for (const item of all) {
      const domain = String(item.meta.domain);
      const raw = JSON.parse(readFileSync(join(FIXTURES, 'dialtom', 'data', `${domain}_retrospective_verified.json`), 'utf8')).find(
        (r: { id: string; state: string }) => `${domain}/${r.id}/${r.state}` === item.id,
      );
      const [a1, a2] = ROLES[domain]!;
      const opts = Object.values(raw.options[raw.state] as Record<string, string>);
      const options = `A: ${opts[0]}\nB: ${opts[1]}\nC: ${opts[2]}\nD: ${opts[3]}`;
      const expected = `
You are an expert in Theory of Mind reasoning.

Task:
You will be provided with conversation between two agents ${a1} and ${a2} engaging in a ${raw.task_desc} session on the topic of ${raw.topic}.

Your goal is to correctly infer ${a2}'s ${raw.state} state, based on the above conversation. You will be provided with a set of options, and you need to choose the most appropriate one that reflects the ${raw.state} state.

The correct option must be consistent with the provided conversation context.

Conversation Context:
${raw.ctx.join('\n')}

Mental State Options:
${options}

Instruction
Output only the letter of the correct option (e.g., "A", "B", "C", or "D"). Do not add explanations or other verbosity.
Your output should be strictly one of: A, B, C, D. NO FORMATTING NEEDS TO BE DONE. ONLY OUTPUT THE OPTION AND NOTHING ELSE. YOUR OUTPUT SHOULD STRICTLY BE ONE OF A, B, C, or D.

Answer:
    `;
      expect(userPrompt('dialtom-retrospective', item)).toEqual({ user: expected });
    }
  });

  it('DialToM prospective, counterfactual and trace injection: the profile lines and lettered continuations', async () => {
    const head =
      '\nYou are an expert in Theory of Mind reasoning.\n\nTask:\nYou will be provided with internal Mental State profile (Belief, Desire, Intention, Emotion, Knowledge, Trust) of client during the conversation.\n\nYour goal is to identify which of the candidate conversation segments is the most plausible continuation of this conversation.\nThe correct option must be consistent with the provided Mental States of the client.';
    const instr =
      'Output only the letter of the correct option (e.g., "A", "B", "C", or "D"). Do not add explanations or other verbosity.\nYour output should be strictly one of: A, B, C, D. NO FORMATTING NEEDS TO BE DONE.';
    const states = ['Belief', 'Desires', 'Intentions', 'Emotions', 'Knowledge', 'Trust'];
    const pro = (await items('dialtom-prospective'))[0]!;
    const raw = JSON.parse(readFileSync(join(FIXTURES, 'dialtom', 'data', 'ESC_prospective_verified.json'), 'utf8'))[0];
    expect(pro.id).toBe(`ESC/${raw.id}/${raw.state}`);
    const profile = states.map((s) => `${s}: ${raw.options[s][raw.correct_option[s]]}`).join('\n');
    const opts = pro.payload.options.map((o, i) => `${letters[i]}: ${o}`).join('\n');
    expect(userPrompt('dialtom-prospective', pro).user).toBe(
      `${head}\n\nMental state of Seeker\n${profile}\n\nCandidate Conversation Segments\n${opts}\n\nInstruction\n${instr}\n\nAnswer:\n`,
    );
    expect(userPrompt('dialtom-trace-injection', pro, 'Trace text.').user).toBe(
      `${head}\n\nMental state of Seeker\n${profile}\n\nCandidate Conversation Segments\n${opts}\n\nYou may use the following reasoning trace from an expert to guide your answer:\nTrace text.\n\nInstruction\n${instr}\n\nAnswer:\n`,
    );
    const cf = (await items('dialtom-counterfactual')).find((i) => i.id === pro.id)!;
    const cfStates = JSON.parse(readFileSync(join(FIXTURES, 'dialtom', 'counterfactual_data', 'ESC_counterfact.json'), 'utf8'))[
      `${raw.id}_${raw.state}`
    ] as string[];
    const cfProfile = cfStates.map((s, i) => `${states[i]}: ${s}`).join('\n');
    const cfOpts = cf.payload.options.map((o, i) => `${letters[i]}: ${o}`).join('\n');
    expect(cfOpts.endsWith('\nE: None of the above.')).toBe(true);
    expect(userPrompt('dialtom-counterfactual', cf).user).toBe(
      `${head} It can also be that none of the options are correct.\n\nMental state of Seeker\n${cfProfile}\n\nCandidate Conversation Segments\n${cfOpts}\n\nInstruction\nOutput only the letter of the correct option (e.g., "A", "B", "C", "D", or "E"). Do not add explanations or other verbosity.\nYour output should be strictly one of: A, B, C, D, E. NO FORMATTING NEEDS TO BE DONE.\n\nAnswer:\n`,
    );
  });

  it('refuses an item without a field the template uses, {trace} without traces, and undeclared placeholders', async () => {
    const tombench = await items('tombench');
    expect(() => createMcqTask('tombench', tombench, { template: loadMcqTemplate('dialtom-retrospective') })).toThrow(
      /the template uses \{initiator\}, \{recipient\}, \{session\}, \{topic\}, \{state\}, which item .* of suite tombench does not have/,
    );
    const prospective = await items('dialtom-prospective');
    expect(() => createMcqTask('dialtom-prospective', prospective, { template: loadMcqTemplate('dialtom-trace-injection') })).toThrow(
      /the template has \{trace\}; give the traces/,
    );
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-tpl-'));
    writeFileSync(join(dir, 't.yaml'), 'user: "{topic} {options}"\n');
    expect(() => loadMcqTemplate(join(dir, 't.yaml'))).toThrow(/unknown placeholder \{topic\} in user .*listed under itemFields/);
    writeFileSync(join(dir, 'u.yaml'), 'itemFields: [topic]\noption: "{text}"\nuser: "{topic} {options}"\n');
    expect(() => loadMcqTemplate(join(dir, 'u.yaml'))).toThrow(/"option" must contain \{label\}/);
    writeFileSync(join(dir, 'v.yaml'), 'itemFields: [topic]\nanswerPatterns: ["Answer [A-D]"]\nuser: "{topic} {options}"\n');
    expect(() => loadMcqTemplate(join(dir, 'v.yaml'))).toThrow(/needs a group for the label/);
  });
});

describe('templates in runs', () => {
  it('a per-suite template reaches the model, and its content (not its name) is part of the run identity', async () => {
    const store = await openStore(':memory:');
    const r = await evaluate({
      store,
      suites: ['dialtom-retrospective', 'tombench'],
      models: ['agent:answer-key'],
      data: FIXTURES,
      limit: 2,
    });
    expect(r.failed).toBe(0);
    const spec = parseRunSpec({
      suites: [{ id: 'dialtom-retrospective', template: 'dialtom-retrospective' }, 'tombench'],
      models: ['agent:answer-key'],
      data: FIXTURES,
      limit: 2,
    });
    const { evaluate: evaluateSpec } = await import('../src/index.js');
    const r2 = await evaluateSpec(spec, { store });
    expect(r2.runId).not.toBe(r.runId);
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-tpl-'));
    const copy = join(dir, 'mine.yaml');
    writeFileSync(copy, readFileSync(templateFile('dialtom-retrospective')));
    const sameContent = parseRunSpec({ ...spec, suites: [{ id: 'dialtom-retrospective', template: copy }, 'tombench'] });
    expect(runIdOf(runIdentity(sameContent))).toBe(r2.runId);
    const rows = (await collect(store.responses(r2.runId))).filter((x) => x.suite === 'dialtom-retrospective');
    const t = await store.transcript({
      runId: r2.runId,
      subjectId: rows[0]!.subjectId,
      suite: rows[0]!.suite,
      itemId: rows[0]!.itemId,
      replicate: 0,
    });
    const sent = t!.transcript.calls[0]!.messages!;
    expect(sent).toHaveLength(1);
    expect(sent[0]!.content as string).toMatch(
      /^\nYou are an expert in Theory of Mind reasoning\.\n\nTask:\nYou will be provided with conversation between two agents (Counselor and Client|Supporter and Seeker|Persuader and Persuadee) engaging in a (Counseling Session|Emotional Support Conversation|Persuasion Conversation) session on the topic of /,
    );
    const tb = (await collect(store.responses(r2.runId))).find((x) => x.suite === 'tombench')!;
    const tt = await store.transcript({ runId: r2.runId, subjectId: tb.subjectId, suite: 'tombench', itemId: tb.itemId, replicate: 0 });
    expect((tt!.transcript.calls[0]!.messages![0]!.content as string).startsWith('You are taking a reading-comprehension test')).toBe(true);
    expect((await collect(store.responses(r2.runId))).every((x) => x.value === 1)).toBe(true);
    await store.close();
  });

  it('the CLI takes SUITE=NAME for one suite and refuses a suite the run does not have', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-tpl-cli-'));
    const args = [
      'run',
      'dialtom-retrospective',
      'tombench',
      '--model',
      'agent:answer-key',
      '--data',
      FIXTURES,
      '--limit',
      '1',
      '--db',
      join(dir, 'm.db'),
      '--json',
    ];
    const ok = await runCli([...args, '--template', 'dialtom-retrospective=dialtom-retrospective', '--template', 'tombench=tombench']);
    expect(ok.stderr).not.toMatch(/mindscope:/);
    expect(JSON.parse(ok.stdout)).toMatchObject({ done: 2, failed: 0 });
    const bad = await runCli([...args, '--template', 'tomato=tomato']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--template tomato=tomato: suite "tomato" is not in this run \(dialtom-retrospective, tombench\)/);
  });
});
