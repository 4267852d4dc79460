import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { openStore, resolveRunId } from '../../../index.js';
import { choiceOption, DEFAULT_DB, intOption, printResult } from '../../../cli/toolkit.js';
import { DEFAULT_CONCURRENCY } from '../../../runner/index.js';
import { readMaskPrompt, teacherTraces, type TraceMasking, type TraceSource } from '../index.js';

/** `dialtom teacher-traces`: a teacher run's stored reasoning as a --traces file. */
export function registerTeacherTraces(dialtom: Command): void {
  dialtom
    .command('teacher-traces')
    .description(
      "a teacher run's stored reasoning as a --traces file (JSONL of { item_id, trace }) for reasoning-trace injection: its last N sentences dropped, masked by the rules or by a model (DialToM §6.3)",
    )
    .requiredOption('--run-id <id>', 'the teacher run (a stored run of a multiple-choice suite)')
    .requiredOption('--out <file>', 'the traces file to write (JSONL of { item_id, trace })')
    .option('--subject <spec>', 'the teacher, when the run has several subjects (a model spec as the run names it)')
    .option('--suite <id>', 'only this suite of the run (needed when two suites share item ids)')
    .option(
      '--from <source>',
      "reasoning: the reasoning stored with each reply (Gemini's thought summaries, Anthropic's thinking, reasoning_content); reply: the reply itself",
      choiceOption('--from', ['reasoning', 'reply'] as const),
      'reasoning',
    )
    .option(
      '--traces-drop-last <n>',
      "drop each trace's last N sentences, where the teacher declares its answer and sums up (the DialToM paper drops 5)",
      intOption('--traces-drop-last', 0),
      0,
    )
    .option(
      '--mask <how>',
      'none: leave the masking to the run (it masks by rules when it injects); rules: mask here by the same rules; llm: mask with --mask-model, as the paper does',
      choiceOption('--mask', ['none', 'rules', 'llm'] as const),
      'none',
    )
    .option('--mask-model <spec>', 'with --mask llm: the masking model (any provider; calls go through the call cache)')
    .option('--mask-prompt <file>', "with --mask llm: a masking prompt of your own, with {options} and {trace} (default: mindscope's)")
    .option(
      '--mask-max-tokens <n>',
      "with --mask llm: the masking model's output-token limit (reasoning models think within it)",
      intOption('--mask-max-tokens', 1),
      8192,
    )
    .option('--concurrency <n>', 'concurrent masking calls', intOption('--concurrency', 1), DEFAULT_CONCURRENCY)
    .option('--db <path>', 'store (the teacher run, and the call cache) (a SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--api-key-env <name>', 'environment variable with the key for an openai-compatible masking model')
    .option('--json', 'print JSON: { out, runId, subject, suites, traces, withoutText, emptied, dropped, masking, maskModel?, masks }')
    .action(
      async (f: {
        runId: string;
        out: string;
        subject?: string;
        suite?: string;
        from: TraceSource;
        tracesDropLast: number;
        mask: TraceMasking;
        maskModel?: string;
        maskPrompt?: string;
        maskMaxTokens: number;
        concurrency: number;
        db: string;
        apiKeyEnv?: string;
        json?: boolean;
      }) => {
        const store = await openStore(f.db);
        try {
          const r = await teacherTraces({
            store,
            runId: await resolveRunId(store, f.runId),
            subject: f.subject,
            suite: f.suite,
            source: f.from,
            dropLast: f.tracesDropLast,
            masking: f.mask,
            maskModel: f.maskModel,
            maskPrompt: f.maskPrompt ? readMaskPrompt(f.maskPrompt) : undefined,
            maskMaxTokens: f.maskMaxTokens,
            apiKeyEnv: f.apiKeyEnv,
            concurrency: f.concurrency,
          });
          writeFileSync(f.out, r.traces.map((t) => `${JSON.stringify(t)}\n`).join(''));
          const masked =
            r.masking === 'none'
              ? 'not masked here (the run masks them by rules when it injects them)'
              : `masked by ${r.masking === 'llm' ? r.maskModel : 'the rules'}: ${r.masks} [MASK] token(s) added`;
          printResult(
            f.json,
            { out: f.out, ...r, traces: r.traces.length },
            [
              `wrote ${r.traces.length} trace(s) of ${r.subject} (run ${r.runId}, ${r.suites.join(', ')}) to ${f.out}; ${masked}`,
              ...(r.dropped ? [`last ${r.dropped} sentence(s) of each trace dropped`] : []),
              ...(r.withoutText.length
                ? [`${r.withoutText.length} item(s) left out: their trial stored no ${f.from === 'reasoning' ? 'reasoning text' : 'reply'}`]
                : []),
              ...(r.emptied.length
                ? [`${r.emptied.length} item(s) left out: nothing was left after dropping ${r.dropped} sentence(s)`]
                : []),
            ].join('\n'),
          );
        } finally {
          await store.close();
        }
      },
    );
}
