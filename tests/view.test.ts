// biome-ignore-all lint/performance/useDomNodeTextContent: these are Playwright locators' innerText (rendered text), not DOM nodes
// The viewer end to end: a store written through the real runner with reference agents (MCQ,
// EnactToM teams, StoryTurn, Director), the real server, and Debian's Chromium.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePaired } from '../src/analysis/index.js';
import { BUILTIN_RECORDS, JudgeScoreDetailSchema, McqPayloadSchema, readRecord, readScoreDetail } from '../src/core/index.js';
import { openStore, runAccuracy, runMatrix, scoreRun, type Store } from '../src/index.js';
import { cellOf } from '../src/analysis/index.js';
import { openStoreForReading, trialBrowser } from '../src/store/index.js';
import { classifyFailure, EPISODE_RECORDS, generateTasks, taskOfItem } from '../src/studies/enacttom/index.js';
import { exportViewer, startViewer, type Viewer } from '../src/view/index.js';
import { artifact, launchChromium } from './helpers/browser.js';
import { evaluate } from './helpers/evaluate.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { writeHostileRun } from './helpers/hostile-run.js';
import { runCli } from './helpers/run-cli.js';

const BIN = join(import.meta.dirname, '..', 'bin', 'mindscope.js');
const RUBRIC = `name: correctness
prompt: |
  Question: {question}
  Response: {response}
  Expected: {expected}
  Reply with JSON: {"score": 0-5}
fields:
  - { name: score, min: 0, max: 5, integer: true }
keywords: { score: [ring, box, basket, bag, drawer] }
`;

let dir: string;
let db: string;
let viewer: Viewer;
let browser: Browser;
let server: ModelServer | undefined;
let page: Page;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mindscope-view-'));
  db = join(dir, 'm.db');
  const store = await openStore(db);
  try {
    await evaluate({ store, suites: ['generated-tom'], limit: 40, models: ['agent:oracle', 'agent:random'], runId: 'tom' });
    // Generated tasks need communication: the silent team fails them.
    writeFileSync(join(dir, 'tasks.json'), JSON.stringify(generateTasks({ n: 2, seed: 11 }).map((g) => g.json)));
    await evaluate({
      store,
      suites: ['enacttom'],
      data: join(dir, 'tasks.json'),
      models: ['agent:planner', 'agent:silent'],
      runId: 'teams',
    });
    await evaluate({ store, suites: ['generated-storyturn'], limit: 4, models: ['agent:oracle', 'agent:random'], runId: 'st' });
    await evaluate({ store, suites: ['director'], limit: 2, models: ['agent:egocentric'], runId: 'dir' });
    // Triangle frame grids need a model that describes: the local OpenAI-compatible server.
    server = await startModelServer();
    await evaluate({ store, suites: ['triangles'], limit: 1, models: [`openai-compatible:${server.url}/v1#ok`], runId: 'tri' });
    await writeHostileRun(store, 'xss');
    // Two offline judges that read answers differently: some trials get a split panel.
    await evaluate({ store, suites: ['generated-tom'], limit: 12, seed: 3, models: ['agent:oracle', 'agent:reality'], runId: 'graded' });
    writeFileSync(join(dir, 'correctness.yaml'), RUBRIC);
    await scoreRun({
      store,
      runId: 'graded',
      rubricPath: join(dir, 'correctness.yaml'),
      judges: ['agent:exact-judge', 'agent:keyword-judge'],
    });
    // A name given with run --name is stored with the run.
    await store.createRun({ ...(await store.getRun('graded'))!, name: 'graded by two judges' });
  } finally {
    await store.close();
  }
  viewer = await startViewer({ db });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await viewer?.close();
  await server?.stop();
});

async function go(hash: string): Promise<void> {
  await page.goto(`${viewer.url}${hash}`);
}

describe('the mindscope view command', () => {
  it('serves the store on the port it prints, and exports a static copy', async () => {
    const child = spawn(process.execPath, [BIN, 'view', '--db', db, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`mindscope view exited with ${code}`)));
      });
      const url = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(line)?.[1];
      expect(line).toContain(`store ${db}`);
      const info = await (await fetch(`${url}api/info`)).json();
      expect(info).toMatchObject({ backend: 'sqlite', location: db, static: false });
      const page = await (await fetch(url!)).text();
      expect(page).toContain('<div id="app">');
    } finally {
      child.kill('SIGTERM');
    }
    const out = join(dir, 'cli-export');
    const r = await runCli(['view', '--db', db, '--export', out]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^wrote .*cli-export\/index\.html: \d+ run\(s\), \d+ trial\(s\)\n$/);
    // A second export into the same folder is refused unless asked, as report's is.
    const again = await runCli(['view', '--db', db, '--export', out]);
    expect(again.stderr).toMatch(/cli-export\/index\.html exists: refusing to overwrite it \(--export\); add --force to replace it/);
    const forced = await runCli(['view', '--db', db, '--export', out, '--force']);
    expect(forced.code).toBe(0);
  });
});

describe('mindscope view in Chromium', () => {
  it('lists the runs with their progress', async () => {
    await go('#/runs');
    await page.locator('.run-card').first().waitFor();
    expect(await page.locator('.run-card').count()).toBe(7);
    const tom = page.locator('.run-card', { has: page.locator('h2', { hasText: /^tom$/ }) });
    expect(await tom.locator('.progress').innerText()).toBe('80 done, 0 failed, 0 pending of 80');
    await page.screenshot({ path: artifact('view-runs.png') });
  });

  it("shows each run's name, status and accuracy per subject, and the version of mindscope serving the page", async () => {
    await go('#/runs');
    await page.locator('.run-card').first().waitFor();
    const version = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8')).version as string;
    expect(await page.locator('header .version').innerText()).toBe(`mindscope ${version}`);
    const graded = page.locator('.run-card', { has: page.locator('h2', { hasText: /^graded/ }) });
    expect(await graded.locator('.run-name').innerText()).toBe('graded by two judges');
    expect(await graded.locator('.state').innerText()).toBe('complete');
    const reading = await openStoreForReading(db);
    try {
      const table = await runAccuracy(reading, 'graded');
      expect(await graded.locator('table.accuracy tbody tr').allInnerTexts()).toEqual(
        ['agent:oracle', 'agent:reality'].map((s) => {
          const c = cellOf(table, s, 'all')!;
          return `${s}\t${(c.accuracy * 100).toFixed(1)}%\t${c.items}`;
        }),
      );
    } finally {
      await reading.close();
    }
  });

  it("shows each trial's input, answer and gold answer in the trials table", async () => {
    // The subject named by its spec in the URL, as compare --subjects takes it.
    await go('#/trials/tom?subject=agent%3Arandom');
    await page.waitForFunction(() => document.body.dataset.trialsLoaded?.includes('subject=agent'));
    const reading = await openStoreForReading(db);
    try {
      const subjectId = (await reading.runSubjects('tom')).find((s) => s.spec === 'agent:random')!.id;
      expect(await page.locator('.total').innerText()).toBe(`${await trialBrowser(reading).count({ runId: 'tom', subjectId })} trials`);
      const first = (await trialBrowser(reading).list({ runId: 'tom', subjectId, limit: 1 }))[0]!;
      const item = (await reading.getItem(first.itemHash))!;
      const detail = readRecord(BUILTIN_RECORDS.mcq, (await reading.transcript(first))!.transcript, 'test')!;
      const option = (label: string) => `${label}. ${detail.presented.find((o) => o.label === label)!.text}`;
      const row = page.locator('table.trials tbody tr').first();
      expect(await row.locator('td.input').innerText()).toBe(readScoreDetail(McqPayloadSchema, item.payload)!.question);
      expect(await row.locator('td.answer').innerText()).toBe(option(detail.parsed!));
      expect(await row.locator('td.gold').innerText()).toBe(option(detail.correctLabel));
      expect(await page.locator('select[name=subject] option:checked').innerText()).toBe('agent:random');
    } finally {
      await reading.close();
    }
  });

  it('pages through a run by cursor: the next page holds the rest of the list, previous gives the first page back', async () => {
    await go('#/trials/tom?sort=item');
    await page.waitForFunction(() => document.body.dataset.trialsLoaded?.startsWith('sort=item|'));
    const rows = page.locator('table.trials tbody tr');
    const reading = await openStoreForReading(db);
    try {
      const whole = await trialBrowser(reading).list({ runId: 'tom', sort: 'item', limit: 1000 });
      expect(whole.length).toBeGreaterThan(50);
      const first = await rows.allInnerTexts();
      expect(first).toHaveLength(50);
      expect(await page.locator('.pager span').nth(1).innerText()).toBe('1-50');
      expect(await page.locator('.pager button', { hasText: 'previous' }).isDisabled()).toBe(true);
      await page.locator('.pager button', { hasText: 'next' }).click();
      await page.waitForFunction(() => document.body.dataset.trialsLoaded?.includes('after='));
      expect(await rows.count()).toBe(whole.length - 50);
      expect(await page.locator('.pager span').nth(1).innerText()).toBe(`51-${whole.length}`);
      expect(await page.locator('.pager button', { hasText: 'next' }).isDisabled()).toBe(true);
      // The second page's first row is the list's 51st.
      expect(await rows.first().locator('td').nth(1).innerText()).toBe(`${whole[50]!.suite}/${whole[50]!.itemId}`);
      await page.locator('.pager button', { hasText: 'previous' }).click();
      await page.waitForFunction(() => document.body.dataset.trialsLoaded?.includes('before='));
      expect(await rows.allInnerTexts()).toEqual(first);
      expect(await page.locator('.pager span').nth(1).innerText()).toBe('1-50');
    } finally {
      await reading.close();
    }
  });

  it('takes a subject in trial, trial-list and compare URLs by spec, short name or id, as compare --subjects does', async () => {
    const reading = await openStoreForReading(db);
    const subjects = await reading.runSubjects('tom');
    const [oracle, random] = ['agent:oracle', 'agent:random'].map((s) => subjects.find((x) => x.spec === s)!);
    const trial = (await trialBrowser(reading).list({ runId: 'tom', subjectId: random!.id, limit: 1 }))[0]!;
    const matrix = await runMatrix(reading, 'tom', 0);
    const tri = await reading.runSubjects('tri');
    const triTrials = await trialBrowser(reading).count({ runId: 'tri' });
    await reading.close();
    for (const name of [random!.spec, random!.id]) {
      await go(`#/trial/tom?subject=${encodeURIComponent(name)}&suite=${trial.suite}&item=${encodeURIComponent(trial.itemId)}&replicate=0`);
      await page.locator('.transcript .subject').waitFor();
      expect(await page.locator('.transcript .subject').innerText()).toBe('agent:random');
    }
    const [a, b] = [oracle!, random!].map((s) => matrix.subjects.indexOf(s.spec)) as [number, number];
    const onlyA = matrix.cells.filter((row) => row[a] === 1 && row[b] === 0).length;
    await go(`#/compare/tom?subject=${oracle!.id}&subject=${encodeURIComponent(random!.spec)}`);
    await page.locator('.only-a').waitFor();
    expect(Number(await page.locator('.only-a').innerText())).toBe(onlyA);
    expect(await page.locator('.compare .filters input:checked').count()).toBe(2);
    // An openai-compatible server's model by the short name reports give it.
    const short = `ok @127.0.0.1:${server!.port}`;
    expect(tri[0]!.spec).toBe(`openai-compatible:${server!.url}/v1#ok`);
    await go(`#/trials/tri?subject=${encodeURIComponent(short)}`);
    await page.waitForFunction(() => document.body.dataset.trialsLoaded?.includes('subject=ok'));
    expect(await page.locator('.total').innerText()).toBe(`${triTrials} trials`);
    await go('#/trials/tom?subject=nobody');
    await page.locator('.error').waitFor();
    expect(await page.locator('.error').innerText()).toMatch(/^\?subject=nobody: no subject "nobody" \(a subject is named by its spec/);
  });

  it('filters to a failed trial, opens its transcript and shows the stored reply', async () => {
    await go('#/trials/tom');
    await page.locator('table.trials tbody tr').first().waitFor();
    await page.selectOption('select[name=subject]', { label: 'agent:random' });
    // One filter at a time, as a reader sets them: the subject's page is loaded before the outcome is chosen.
    await page.waitForFunction(() => document.body.dataset.trialsLoaded?.includes('subject='));
    await page.selectOption('select[name=outcome]', 'incorrect');
    await page.waitForFunction(() => {
      const loaded = document.body.dataset.trialsLoaded ?? '';
      return loaded.includes('outcome=incorrect') && loaded.includes('subject=');
    });
    const reading = await openStoreForReading(db);
    let expectedReply: string;
    let expectedTotal: number;
    try {
      const subjectId = (await reading.runSubjects('tom')).find((s) => s.spec === 'agent:random')!.id;
      const q = { runId: 'tom', subjectId, outcome: 'incorrect' as const };
      expectedTotal = await trialBrowser(reading).count(q);
      const first = (await trialBrowser(reading).list({ ...q, limit: 1 }))[0]!;
      const stored = await reading.transcript(first);
      expectedReply = stored!.transcript.calls[0]!.response!.text;
      expect(first.score).toBe(0);
    } finally {
      await reading.close();
    }
    expect(expectedTotal).toBeGreaterThan(5);
    expect(await page.locator('.total').innerText()).toBe(`${expectedTotal} trials`);
    expect(await page.locator('table.trials tbody .bad').count()).toBe(Math.min(50, expectedTotal));
    await page.screenshot({ path: artifact('view-trials.png') });
    await page.locator('table.trials tbody tr').first().click();
    await page.locator('.reply-text').first().waitFor();
    expect(await page.locator('.reply-text').first().innerText()).toBe(expectedReply);
    expect(await page.locator('.transcript .subject').innerText()).toBe('agent:random');
    expect(await page.locator('.mcq .parsed').innerText()).not.toBe('');
    await page.screenshot({ path: artifact('view-transcript.png'), fullPage: true });
  });

  it('searches prompts and replies', async () => {
    await go('#/trials/tom?q=Answer%3A');
    await page.waitForFunction(() => document.body.dataset.trialsLoaded?.includes('q=Answer'));
    const reading = await openStoreForReading(db);
    try {
      const n = await trialBrowser(reading).count({ runId: 'tom', search: 'answer:' });
      expect(n).toBeGreaterThan(0);
      expect(await page.locator('.total').innerText()).toBe(`${n} trials`);
      expect(await trialBrowser(reading).count({ runId: 'tom', search: 'no such text anywhere 123' })).toBe(0);
    } finally {
      await reading.close();
    }
  });

  it('compares two subjects with the paired statistics of mindscope compare', async () => {
    await go('#/compare/tom');
    await page.locator('table.paired tbody tr').first().waitFor();
    const reading = await openStoreForReading(db);
    const cells = comparePaired(await runMatrix(reading, 'tom', 0));
    const matrix = await runMatrix(reading, 'tom', 0);
    const [a, b] = ['agent:oracle', 'agent:random'].map((s) => matrix.subjects.indexOf(s)) as [number, number];
    const onlyA = matrix.cells.filter((row) => row[a] === 1 && row[b] === 0).length;
    expect(onlyA).toBeGreaterThan(5);
    expect(Number(await page.locator('.only-a').innerText())).toBe(onlyA);
    expect(Number(await page.locator('.only-b').innerText())).toBe(0);
    expect(await page.locator('table.paired tbody tr').count()).toBe(cells.length);
    await reading.close();
    await page.screenshot({ path: artifact('view-compare.png'), fullPage: true });
  });

  it('replays an EnactToM episode turn by turn with its failure mode', async () => {
    const reading = await openStoreForReading(db);
    const subjectId = (await reading.runSubjects('teams')).find((s) => s.spec === 'agent:silent')!.id;
    const trial = (await trialBrowser(reading).list({ runId: 'teams', subjectId, outcome: 'incorrect', limit: 1 }))[0]!;
    const stored = (await reading.transcript(trial))!.transcript;
    const detail = readRecord(EPISODE_RECORDS, stored, 'test')!;
    const item = (await reading.getItem((await trialBrowser(reading).trial(trial))!.itemHash))!;
    const modes = classifyFailure(taskOfItem(item)!, detail).map((f) => f.mode);
    await reading.close();
    expect(detail.functional).toBe(false);
    await go(`#/trial/teams?subject=${subjectId}&suite=${trial.suite}&item=${encodeURIComponent(trial.itemId)}&replicate=0`);
    await page.locator('.episode .step').waitFor();
    const total = Number((await page.locator('.episode .step').innerText()).split(' of ')[1]);
    expect(total).toBeGreaterThan(1);
    const before = await page.locator('.episode .world').innerText();
    expect(before).toMatch(/agent_\d+ in /);
    await page.locator('.episode button.next').click();
    expect(await page.locator('.episode .step').innerText()).toBe(`turn 2 of ${total}`);
    expect(await page.locator('.episode .failure-mode').allInnerTexts()).toEqual(modes);
    expect(await page.locator('.episode h3').first().innerText()).toContain('functional no');
    await page.screenshot({ path: artifact('view-episode.png'), fullPage: true });
  });

  it('shows StoryTurn feedback branches, Director scenes and triangle frame grids beside the answers', async () => {
    await go('#/trials/st');
    await page.locator('table.trials tbody tr').first().click();
    await page.locator('.story .story-turn').first().waitFor();
    expect(await page.locator('.story .story-turn').count()).toBeGreaterThan(1);
    expect(await page.locator('.story .branch').first().innerText()).toMatch(/answer branch$/);
    await page.screenshot({ path: artifact('view-storyturn.png'), fullPage: true });
    await go('#/trials/dir');
    await page.locator('table.trials tbody tr').first().click();
    await page.locator('.director img.inline').waitFor();
    expect(await page.locator('.director img.inline').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await page.locator('.director').innerText()).toContain('egocentric');
    await page.screenshot({ path: artifact('view-director.png'), fullPage: true });
    await go('#/trials/tri');
    await page.locator('table.trials tbody tr').first().click();
    await page.locator('.describe img.inline').first().waitFor();
    expect(
      await page
        .locator('.describe img.inline')
        .first()
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    ).toBeGreaterThan(0);
    expect(await page.locator('.describe pre').last().innerText()).toBe(await page.locator('.reply-text').first().innerText());
    await page.screenshot({ path: artifact('view-triangles.png'), fullPage: true });
  });

  it("shows every judge's raw output with the rubric hash, and filters to split panels", async () => {
    const reading = await openStoreForReading(db);
    const split: string[] = [];
    let rubric: { rubric: string; sha256: string };
    try {
      rubric = (await reading.pinnedRubrics('graded'))[0]!;
      for (const r of await trialBrowser(reading).list({ runId: 'graded', limit: 1000 })) {
        const panel = readScoreDetail(JudgeScoreDetailSchema, (await reading.scoreOf(r, 'judge:correctness'))?.detail);
        if (panel && new Set(panel.judges.map((j) => JSON.stringify(j.values))).size > 1) split.push(`${r.spec}/${r.itemId}`);
      }
    } finally {
      await reading.close();
    }
    expect(split.length).toBeGreaterThan(0);
    await go('#/trials/graded?disagree=yes');
    await page.waitForFunction(() => document.body.dataset.trialsLoaded?.includes('disagree=yes'));
    expect(await page.locator('.total').innerText()).toBe(`${split.length} trials`);
    await page.locator('table.trials tbody tr').first().click();
    await page.locator('.scores table').first().waitFor();
    expect(await page.locator('.scores').innerText()).toContain(`rubric ${rubric.rubric} sha256 ${rubric.sha256}`);
    const rows = await page.locator('.scores table tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t')[0])).toEqual(['agent:exact-judge', 'agent:keyword-judge']);
    expect(new Set(rows.map((r) => r.split('\t')[1])).size).toBe(2);
    await page.screenshot({ path: artifact('view-judges.png'), fullPage: true });
  });

  it('renders hostile replies, item texts and subject names as text; nothing executes', async () => {
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await go('#/trials/xss');
    await page.locator('table.trials tbody tr').first().waitFor();
    expect(await page.locator('table.trials tbody td').first().innerText()).toBe('agent:<img src=x onerror=window.__xss=1>');
    await page.locator('table.trials tbody tr').first().click();
    await page.locator('.reply-text').first().waitFor();
    expect(await page.locator('.reply-text').first().innerText()).toContain('<script>window.__xss=3</script>');
    expect(await page.locator('.item-context').innerText()).toContain('<img src=x onerror="window.__xss=2">');
    expect(await page.locator('.reply details').innerText()).toBe(
      'reasoning (12 tokens)\nThinking <script>window.__xss=8</script> about it',
    );
    await go('#/runs');
    await page.locator('.run-card').first().waitFor();
    expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('img[onerror], script:not([src])').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('links audit reports found beside the store from each run', async () => {
    writeFileSync(join(dir, 'audit-panel.html'), '<html><body><h1>Audit of the panel</h1></body></html>');
    await go('#/reports/tom');
    await page.locator('a[href^="files/audit/"]').waitFor();
    expect(await page.locator('a[href^="files/audit/"]').innerText()).toBe('audit-panel.html');
    expect(await (await fetch(`${viewer.url}files/audit/audit-panel.html`)).text()).toContain('Audit of the panel');
    expect((await fetch(`${viewer.url}files/audit/m.db`)).status).toBe(404);
  });

  it('refreshes while another process writes to the same database', async () => {
    await go('#/runs');
    await page.locator('.run-card').first().waitFor();
    expect(await page.locator('.run-card').count()).toBe(7);
    const store: Store = await openStore(db);
    try {
      await writeHostileRun(store, 'live');
    } finally {
      await store.close();
    }
    await page.waitForFunction(() => document.querySelectorAll('.run-card').length === 8, undefined, { timeout: 10_000 });
  });

  it('exports the views to a folder that opens from file://', async () => {
    const out = join(dir, 'export');
    const { trials } = await exportViewer(db, out);
    expect(trials).toBeGreaterThan(80);
    await page.goto(`${pathToFileURL(join(out, 'index.html')).href}#/trials/tom`);
    await page.locator('.total').waitFor();
    expect(await page.locator('.total').innerText()).toBe('80 trials');
    expect(await page.locator('table.trials tbody td.gold').first().innerText()).toMatch(/^[A-Z]\. ./);
    // Its pager turns pages as the served viewer's does.
    const rows = page.locator('table.trials tbody tr');
    const first = await rows.allInnerTexts();
    await page.locator('.pager button', { hasText: 'next' }).click();
    await page.waitForFunction(() => document.body.dataset.trialsLoaded?.includes('after='));
    expect(await rows.count()).toBe(30);
    expect(await page.locator('.pager span').nth(1).innerText()).toBe('51-80');
    await page.locator('.pager button', { hasText: 'previous' }).click();
    await page.waitForFunction(() => document.body.dataset.trialsLoaded?.includes('before='));
    expect(await rows.allInnerTexts()).toEqual(first);
    await page.selectOption('select[name=outcome]', 'correct');
    await page.locator('table.trials tbody tr').first().click();
    await page.locator('.reply-text').first().waitFor();
    expect(await page.locator('.badge').innerText()).toBe('static export');
    // Subjects by spec in the export's URLs too.
    await page.goto(`${pathToFileURL(join(out, 'index.html')).href}#/trials/tom?subject=agent%3Arandom`);
    await page.waitForFunction(() => document.body.dataset.trialsLoaded?.includes('subject=agent'));
    expect(await page.locator('.total').innerText()).toBe('40 trials');
  });
});
