import type { Command } from 'commander';
import { join } from 'node:path';
import { openStore } from '../../../index.js';
import { intOption, printResult } from '../../../cli/toolkit.js';
import { paperDialtomWriter, summarizeReleasedItems } from '../index.js';
import { type WritingFlags, writerOptions, writingOptions } from './writing-options.js';

interface Flags extends WritingFlags {
  data: string;
  out: string;
  domain?: string[];
  limit?: number;
  concurrency: number;
  json?: boolean;
}

async function summarize(f: Flags): Promise<void> {
  const store = await openStore(f.db);
  const w = paperDialtomWriter({ store, ...writerOptions(f, ['summary']) });
  let r: Awaited<ReturnType<typeof summarizeReleasedItems>>;
  try {
    r = await summarizeReleasedItems({
      data: f.data,
      out: f.out,
      summarize: w.summarize,
      domains: f.domain,
      limit: f.limit,
      concurrency: f.concurrency,
    });
  } finally {
    await w.close();
    await store.close();
  }
  const refused = w.log.refused;
  printResult(
    f.json,
    { ...r, calls: w.log.calls, followUps: w.log.followUps, refused },
    `${r.conversations - refused.length} of ${r.conversations} dialogue window(s) summarised (${refused.length} refused); ${r.items} prospective item(s) with a summary written to ${join(f.out, 'dialtom', 'data')} (${w.log.calls} prompts, cached replies included; ${w.log.followUps} asked again)\n${refused
      .map((x) => `summary refused for ${x.window} after ${x.attempts} attempt(s): ${x.problem}\n`)
      .join('')}${
      r.leftOut.length ? `left out (no summary): ${r.leftOut.join(', ')}\n` : ''
    }run them: mindscope run dialtom-prospective --data ${f.out} --template dialtom-summary-states --model SPEC\n`,
  );
}

/** `dialtom summarize --json` prints `{ files, items, conversations, leftOut, calls, followUps, refused: [{ window, what, problem, attempts }] }`. */
export function registerSummarize(dialtom: Command): void {
  writingOptions(
    dialtom
      .command('summarize')
      .description(
        "add a conversation summary under 50 words (the paper's K.1 prompt; a longer one is asked again, then refused) to released prospective items, written as the summary+states variant the dialtom-prospective suite reads",
      )
      .requiredOption('--data <dir>', 'the released items (the released layout: DIR/dialtom/data/DOMAIN_prospective_verified.json)')
      .requiredOption('--out <dir>', 'output folder (run dialtom-prospective with --data DIR --template dialtom-summary-states)')
      .option('--domain <d...>', 'only these domains (MI, ESC, PFG)')
      .option('--limit <n>', 'the first N items of each domain', intOption('--limit', 1))
      .option('--concurrency <n>', 'windows summarised at a time', intOption('--concurrency', 1), 4),
    ['summary'],
  )
    .option('--json', 'print JSON')
    .action(summarize);
}
