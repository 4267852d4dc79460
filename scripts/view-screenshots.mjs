// The viewer guide's screenshots (docs/guide/viewer.md, docs/img/view-*.png): a store written by reference
// agents (MCQ, an EnactToM team, StoryTurn, the Director Task), the viewer, Debian's Chromium.
//   node scripts/view-screenshots.mjs   (npm run build first)

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from './chromium.mjs';
import { evaluate, openStore } from '../dist/index.js';
import { generateTasks } from '../dist/studies/enacttom/index.js';
import { startViewer } from '../dist/view/index.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-shots-'));
const db = join(dir, 'm.db');
const store = await openStore(db);
const run = (spec, runId) => evaluate(spec, { store, runId });
await run({ suites: ['generated-tom'], models: ['agent:oracle', 'agent:random', 'agent:reality'], limit: 60 }, 'tom-panel');
writeFileSync(join(dir, 'tasks.json'), JSON.stringify(generateTasks({ n: 3, seed: 11 }).map((g) => g.json)));
await run({ suites: ['enacttom'], data: join(dir, 'tasks.json'), models: ['agent:planner', 'agent:silent'] }, 'teams');
await run({ suites: ['generated-storyturn'], models: ['agent:oracle', 'agent:random'], limit: 4 }, 'storyturn');
await run({ suites: ['director'], models: ['agent:egocentric'], limit: 2 }, 'director');
const planner = (await store.runSubjects('teams')).find((s) => s.spec === 'agent:planner').id;
const random = (await store.runSubjects('tom-panel')).find((s) => s.spec === 'agent:random').id;
await store.close();

const viewer = await startViewer({ db });
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1100, height: 640 } });
mkdirSync('docs/img', { recursive: true });
async function shot(name, hash, ready, action) {
  await page.goto(`${viewer.url}${hash}`);
  await page.locator(ready).first().waitFor();
  if (action) await action();
  await page.screenshot({ path: `docs/img/view-${name}.png` });
  console.log(`docs/img/view-${name}.png`);
}
await shot('runs', '#/runs', '.run-card');
await shot('trials', `#/trials/tom-panel?subject=${random}&outcome=incorrect`, 'table.trials tbody tr');
await shot('transcript', `#/trial/tom-panel?subject=${random}&suite=generated-tom&item=s0-0006&replicate=0`, '.reply-text');
await shot('compare', '#/compare/tom-panel?subject=agent%3Aoracle&subject=agent%3Areality', 'table.paired tbody tr');
await shot('episode', `#/trial/teams?subject=${planner}&suite=enacttom&item=gen-11-0000&replicate=0`, '.episode .step', async () => {
  for (let i = 0; i < 3; i++) await page.locator('.episode button.next').click();
  await page.locator('.episode').scrollIntoViewIfNeeded();
});
await shot('director', '#/trials/director', 'table.trials tbody tr', async () => {
  await page.locator('table.trials tbody tr').first().click();
  await page.locator('.director img.inline').waitFor();
  await page.locator('.director').scrollIntoViewIfNeeded();
});
await browser.close();
await viewer.close();
