import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { openStore } from '../../../index.js';
import { readJson } from '../../../core/index.js';
import { intOption, printResult } from '../../../cli/toolkit.js';
import { dialogueWindows, paperDialtomWriter, readDialogues } from '../index.js';
import { ALL_PROMPTS, type WritingFlags, writerOptions, writingOptions } from './writing-options.js';

interface Flags extends WritingFlags {
  dialogues: string;
  out: string;
  limit?: number;
  json?: boolean;
}

async function write(f: Flags): Promise<void> {
  const dialogues = readDialogues(readJson(f.dialogues), f.dialogues);
  const store = await openStore(f.db);
  const w = paperDialtomWriter({ store, ...writerOptions(f, ALL_PROMPTS) });
  const table: Record<string, unknown> = {};
  try {
    let count = 0;
    for (const d of dialogues)
      for (const [k, [start, end]] of dialogueWindows(d.turns).entries()) {
        if (f.limit !== undefined && count >= f.limit) break;
        count++;
        const id = `${d.id}, ${k}`;
        const t = await w.writer(d, { id, lines: d.turns.slice(start, end), next: d.turns.slice(end, end + 4) });
        table[id] = {
          true: t.true,
          wrong: t.wrong,
          distractor_trajectories: t.distractorTrajectories,
          counterfactual: t.counterfactual,
          ...(t.summary !== undefined ? { summary: t.summary } : {}),
        };
      }
  } finally {
    await w.close();
    await store.close();
  }
  writeFileSync(f.out, JSON.stringify(table, null, 1));
  const windows = Object.keys(table).length;
  const refused = w.log.refused;
  printResult(
    f.json,
    { out: f.out, dialogues: dialogues.length, windows, calls: w.log.calls, followUps: w.log.followUps, refused },
    `wrote options for ${windows} window(s) of ${dialogues.length} dialogue(s) to ${f.out} (${w.log.calls} prompts, cached replies included; ${w.log.followUps} asked again)\n${refused
      .map((r) => `summary refused for window "${r.window}" after ${r.attempts} attempt(s): ${r.problem}\n`)
      .join(
        '',
      )}build the items: mindscope dialtom build --dialogues ${f.dialogues} --options ${f.out} --out DIR (a window without a summary has an empty one in the summary+states variant)\n`,
  );
}

/** `dialtom write --json` prints `{ out, dialogues, windows, calls, followUps, refused: [{ window, what, problem, attempts }] }`. */
export function registerWrite(dialtom: Command): void {
  writingOptions(
    dialtom
      .command('write')
      .description(
        "write item options with the paper's prompts (Appendices K.1-K.2): per window the true and three wrong states per attribute, three distractor trajectories, a contrary state per attribute (the counterfactual profile) and a summary under 50 words; a file for dialtom build --options",
      )
      .requiredOption(
        '--dialogues <file>',
        'JSON list of { id, domain, topic?, task_desc?, turns: ["speaker: text"] or [{ speaker, text }] }',
      )
      .requiredOption('--out <file>', 'the options file (JSON by window id: true, wrong, distractor_trajectories, counterfactual, summary)')
      .option('--limit <n>', 'the first N windows', intOption('--limit', 1)),
    ALL_PROMPTS,
  )
    .option('--json', 'print JSON: { out, dialogues, windows, calls, followUps, refused }')
    .action(write);
}
