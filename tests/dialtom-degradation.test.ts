// DialToM's context-degradation prompts (Appendix K.4) on the released items: every prospective
// item exposes its dialogue window as {conversation} (the "ctx" of its file) and its {summary}
// only where the file holds one; the released files hold none, so the summary prompt refuses
// them, saying so, and runs on items that have a summary.

import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMcqTemplate } from '../src/protocols/index.js';
import { loadDialtom } from '../src/studies/dialtom/index.js';
import { runCli } from './helpers/run-cli.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

const DATA = join(__dirname, 'fixtures', 'data');
const FILES = join(DATA, 'dialtom', 'data');
const DOMAINS = ['ESC', 'MI', 'PFG'];

type Raw = { id: string; state: string; ctx: string[]; summary?: string };
const raw = (domain: string, task = 'prospective') =>
  JSON.parse(readFileSync(join(FILES, `${domain}_${task}_verified.json`), 'utf8')) as Raw[];

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.stop();
});

describe('context degradation on the released items', () => {
  it('each prospective, easy and counterfactual item carries its window as {conversation} and no summary', () => {
    for (const task of ['prospective', 'prospective-easy', 'counterfactual'] as const) {
      const items = loadDialtom(DATA, task).items;
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        const domain = String(item.meta.domain);
        const rec = raw(domain, task === 'counterfactual' ? 'prospective' : task).find((r) => `${domain}/${r.id}/${r.state}` === item.id)!;
        expect(item.meta.conversation).toBe(rec.ctx.join('\n'));
        expect(item.meta).not.toHaveProperty('summary');
      }
    }
  });

  it('the history + states prompt runs on the released items with the window in the prompt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-degrade-'));
    const before = (await server.stats()).requests;
    const r = await runCli([
      'run',
      'dialtom-prospective',
      '--data',
      DATA,
      '--template',
      'dialtom-history-states',
      '--model',
      `openai-compatible:${server.url}/v1#ok`,
      '--db',
      join(dir, 'm.db'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const stats = await server.stats();
    expect(stats.requests - before).toBe(12);
    const prompts = stats.bodies.slice(-12).map((b) => b.body.messages.at(-1).content as string);
    for (const domain of DOMAINS)
      for (const rec of raw(domain)) {
        const prompt = prompts.find((p) => p.includes(`Conversation Context:\n${rec.ctx.join('\n')}\n\nMental State of`));
        expect(prompt, `${domain} ${rec.id} ${rec.state}`).toBeDefined();
      }
  });

  it('the summary + states prompt refuses items without a summary, saying so, and runs on items with one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-degrade-'));
    const args = (data: string) => [
      'run',
      'dialtom-prospective',
      '--data',
      data,
      '--template',
      'dialtom-summary-states',
      '--model',
      `openai-compatible:${server.url}/v1#ok`,
      '--db',
      join(dir, 'm.db'),
    ];
    const refused = await runCli(args(DATA));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /the template uses \{summary\}, which item .* of suite dialtom-prospective does not have \(12 of 12 items lack/,
    );
    expect(refused.stderr).toMatch(/\{summary\}: the item file holds no "summary" for this window \(the released DialToM files hold none/);
    // The same files, each item given a summary of its own.
    const copy = join(dir, 'data');
    cpSync(DATA, copy, { recursive: true });
    for (const domain of DOMAINS) {
      const file = join(copy, 'dialtom', 'data', `${domain}_prospective_verified.json`);
      const rows = (JSON.parse(readFileSync(file, 'utf8')) as Raw[]).map((r) => ({ ...r, summary: `Summary of ${domain} ${r.id}.` }));
      writeFileSync(file, JSON.stringify(rows));
    }
    const before = (await server.stats()).requests;
    const ran = await runCli(args(copy));
    expect(ran.code, ran.stderr).toBe(0);
    const stats = await server.stats();
    expect(stats.requests - before).toBe(12);
    const prompts = stats.bodies.slice(-12).map((b) => b.body.messages.at(-1).content as string);
    for (const domain of DOMAINS)
      for (const rec of raw(domain))
        expect(prompts.some((p) => p.includes(`Conversation Context Summary:\nSummary of ${domain} ${rec.id}.\n\nMental State of`))).toBe(
          true,
        );
  });
});

describe("a template's notes on item fields", () => {
  it('are read with the template and must name listed fields', () => {
    expect(loadMcqTemplate('dialtom-summary-states').itemFieldNotes?.summary).toMatch(/^the item file holds no "summary"/);
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-notes-'));
    const file = join(dir, 't.yaml');
    writeFileSync(file, 'itemFields: ["topic"]\nitemFieldNotes:\n  summary: "not listed"\nuser: "{topic} {question}"\n');
    expect(() => loadMcqTemplate(file)).toThrow(/t\.yaml: itemFieldNotes: "summary" is not listed under itemFields/);
    writeFileSync(file, 'itemFields: ["topic"]\nitemFieldNotes:\n  topic: 3\nuser: "{topic} {question}"\n');
    expect(() => loadMcqTemplate(file)).toThrow(/itemFieldNotes: the note on "topic" must be a string/);
  });
});
