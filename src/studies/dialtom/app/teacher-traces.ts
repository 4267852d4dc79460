// Teacher traces from a stored run, for reasoning-trace injection (`run --traces FILE`): the
// reasoning each trial's reply came with (what the provider returned of the model's thinking:
// Gemini's thought summaries, Anthropic's thinking, reasoning_content of open reasoning models),
// or the reply itself, per item; its last N sentences dropped (the DialToM paper drops five,
// where the teacher declares its answer and sums up: Appendix L.3); then masked by the rules
// (maskOptionReferences) or by a model (trace-masker.ts), or left for the run to mask.

import { ConfigError, MCQ_RECORDS, McqPayloadSchema, readRecord } from '../../../core/index.js';
import { dropLastSentences, maskOptionReferences } from '../../../protocols/index.js';
import { PROTOCOL_SCORES, type Store } from '../../../store/index.js';
import type { Registry } from '../../../app/index.js';
import { maskTracesWithModel, type MaskRequest } from './trace-masker.js';

export type TraceSource = 'reasoning' | 'reply';
export type TraceMasking = 'none' | 'rules' | 'llm';

export interface TeacherTrace {
  item_id: string;
  trace: string;
}

export interface TeacherTraces {
  runId: string;
  subject: string;
  suites: string[];
  traces: TeacherTrace[];
  /** Items whose trial holds no text to take (no reasoning returned, or an empty reply). */
  withoutText: string[];
  /** Items whose text had no more sentences than were to be dropped (nothing left: left out). */
  emptied: string[];
  dropped: number;
  masking: TraceMasking;
  /** The model that masked (masking 'llm'). */
  maskModel?: string;
  /** [MASK] tokens added by the masking, over all traces. */
  masks: number;
}

interface Found {
  itemId: string;
  suite: string;
  text: string;
  /** The options as the teacher saw them, and the item's options in its own order. */
  presented: Array<{ label: string; text: string }>;
  options: string[];
}

/** The subject to read: the one given, or the run's only one; several without a choice is an error listing them. */
function pickSubject(specs: string[], wanted: string | undefined, runId: string): string {
  if (wanted !== undefined) {
    if (!specs.includes(wanted)) throw new ConfigError(`run ${runId} has no subject "${wanted}" (its subjects: ${specs.join(', ')})`);
    return wanted;
  }
  if (specs.length !== 1)
    throw new ConfigError(`run ${runId} has ${specs.length} subjects: name the teacher with --subject (${specs.join(', ')})`);
  return specs[0]!;
}

/**
 * Read a teacher run's traces (replicate 0 of each item), drop their last sentences and mask
 * them. An item id found in two suites is an error unless `suite` names one.
 */
export async function teacherTraces(opts: {
  store: Store;
  runId: string;
  subject?: string;
  suite?: string;
  source?: TraceSource;
  dropLast?: number;
  masking?: TraceMasking;
  maskModel?: string;
  maskPrompt?: string;
  maskMaxTokens?: number;
  apiKeyEnv?: string;
  concurrency?: number;
  registry?: Registry;
}): Promise<TeacherTraces> {
  const source = opts.source ?? 'reasoning';
  const masking = opts.masking ?? 'none';
  if ((masking === 'llm') !== (opts.maskModel !== undefined))
    throw new ConfigError(masking === 'llm' ? 'masking by a model needs --mask-model SPEC' : '--mask-model goes with --mask llm');
  const rows = [];
  for await (const r of opts.store.responses(opts.runId, PROTOCOL_SCORES)) if (r.replicate === 0) rows.push(r);
  if (rows.length === 0) throw new ConfigError(`run ${opts.runId} has no scored trial`);
  const subject = pickSubject([...new Set(rows.map((r) => r.spec))], opts.subject, opts.runId);
  const mine = rows.filter((r) => r.spec === subject && (opts.suite === undefined || r.suite === opts.suite));
  if (mine.length === 0) throw new ConfigError(`run ${opts.runId} has no trial of ${subject} in suite ${opts.suite}`);
  const found: Found[] = [];
  const withoutText: string[] = [];
  const seen = new Map<string, string>();
  for (const r of mine) {
    const before = seen.get(r.itemId);
    if (before !== undefined && before !== r.suite)
      throw new ConfigError(`item ${r.itemId} is in suites ${before} and ${r.suite} of run ${opts.runId}: name one with --suite`);
    seen.set(r.itemId, r.suite);
    const where = `${opts.runId} ${r.suite}/${r.itemId}`;
    const t = await opts.store.transcript({ runId: opts.runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: 0 });
    const record = t ? readRecord(MCQ_RECORDS, t.transcript, where) : undefined;
    const item = await opts.store.getItem(r.itemHash);
    const options = McqPayloadSchema.safeParse(item?.payload).data?.options;
    if (!t || !record || !options) throw new ConfigError(`${where}: not a multiple-choice trial (teacher traces are read from mcq runs)`);
    const response = [...t.transcript.calls].reverse().find((c) => c.kind === 'chat' && c.response)?.response;
    const text = (source === 'reasoning' ? response?.reasoning?.text : response?.text)?.trim();
    if (!text) withoutText.push(r.itemId);
    else found.push({ itemId: r.itemId, suite: r.suite, text, presented: record.presented, options });
  }
  const dropped = opts.dropLast ?? 0;
  const kept: Found[] = [];
  const emptied: string[] = [];
  for (const f of found) {
    const text = dropLastSentences(f.text, dropped);
    if (text.trim()) kept.push({ ...f, text });
    else emptied.push(f.itemId);
  }
  let masks = 0;
  let traces: TeacherTrace[];
  if (masking === 'llm') {
    const requests: MaskRequest[] = kept.map((f) => ({ itemId: f.itemId, trace: f.text, options: f.presented }));
    const masked = await maskTracesWithModel({
      store: opts.store,
      model: opts.maskModel!,
      requests,
      prompt: opts.maskPrompt,
      maxTokens: opts.maskMaxTokens,
      apiKeyEnv: opts.apiKeyEnv,
      concurrency: opts.concurrency,
      registry: opts.registry,
    });
    masks = masked.reduce((s, m) => s + m.masks, 0);
    traces = masked.map((m) => ({ item_id: m.itemId, trace: m.masked }));
  } else if (masking === 'rules') {
    traces = kept.map((f) => {
      const m = maskOptionReferences(f.text, f.options);
      masks += m.masks;
      return { item_id: f.itemId, trace: m.masked };
    });
  } else traces = kept.map((f) => ({ item_id: f.itemId, trace: f.text }));
  return {
    runId: opts.runId,
    subject,
    suites: [...new Set(mine.map((r) => r.suite))],
    traces,
    withoutText,
    emptied,
    dropped,
    masking,
    ...(opts.maskModel ? { maskModel: opts.maskModel } : {}),
    masks,
  };
}
