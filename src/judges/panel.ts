// A judge panel scores one response: every judge gets the rubric prompt with the subject's
// opaque id (never its name or provider) and never sees another judge's output; temperature 0;
// a reply that fails the rubric's schema gets one repair request quoting what was wrong, then
// counts as a judge failure. Every judge's raw output is kept; fields are aggregated over the
// judges that answered. A judge whose provider takes a response schema is asked for structured
// output built from the rubric's score fields (OpenAI json_schema, Anthropic tool input, Gemini
// responseSchema); the others get the prompt alone. Either way the reply is checked the same.

import {
  JUDGE_INFO,
  withInfo,
  type CallContext,
  type ChatMessage,
  type ChatResponse,
  type GenerationSettings,
  type JudgeRecord,
  type PanelScore,
} from '../core/index.js';
import { aggregate, type Aggregation } from './aggregate.js';
import { parseJudgeOutput } from './judge-output.js';
import { outputSchema, renderRubric, type Rubric } from './rubric.js';

/** What a judge call needs: a TrialModel of the runner (cache, retries, cost) fits. */
export interface JudgeCaller {
  readonly spec: string;
  /** The judge's provider enforces a response schema (structured output). */
  readonly structuredOutput?: boolean;
  chat(messages: ChatMessage[], settings?: Partial<GenerationSettings>, context?: CallContext): Promise<ChatResponse>;
}

export interface JudgeInput {
  /** The subject's opaque id: all a judge learns of who answered. */
  subject: string;
  response: string;
  /** Further template variables (question, context, expected answer, clip script...). */
  vars?: Record<string, string>;
  /** For the offline exact judge: the expected answer. */
  expected?: string;
}

/** One judge's verdict on one response, with one repair request quoting the error when the first reply does not fit the rubric. */
export async function judgeOnce(judge: JudgeCaller, rubric: Rubric, input: JudgeInput): Promise<JudgeRecord> {
  const prompt = renderRubric(rubric, { subject: input.subject, response: input.response, ...(input.vars ?? {}) });
  const context: CallContext = {
    info: withInfo(JUDGE_INFO, { fields: rubric.fields, keywords: rubric.keywords, response: input.response, expected: input.expected }),
  };
  const messages: ChatMessage[] = [{ role: 'user', content: prompt }];
  const settings: Partial<GenerationSettings> = judge.structuredOutput
    ? { temperature: 0, responseSchema: { name: rubric.name, schema: outputSchema(rubric) } }
    : { temperature: 0 };
  const first = await judge.chat(messages, settings, context);
  const parsed = parseJudgeOutput(first.text, rubric);
  if (parsed.ok) return { judge: judge.spec, raw: [first.text], values: parsed.values };
  const repair = await judge.chat(
    [
      ...messages,
      { role: 'assistant', content: first.text },
      {
        role: 'user',
        content: `Your reply could not be used: ${parsed.error}. Reply with only a JSON object matching this schema: ${JSON.stringify(outputSchema(rubric))}`,
      },
    ],
    settings,
    context,
  );
  const second = parseJudgeOutput(repair.text, rubric);
  return second.ok
    ? { judge: judge.spec, raw: [first.text, repair.text], values: second.values }
    : { judge: judge.spec, raw: [first.text, repair.text], values: null, error: second.error };
}

/** A panel's verdict on one response: every judge's raw output and values, and their aggregate per field. */
export async function scoreWithPanel(
  judges: JudgeCaller[],
  rubric: Rubric,
  input: JudgeInput,
  aggregation: Aggregation = 'median',
): Promise<PanelScore> {
  const records = await Promise.all(judges.map((j) => judgeOnce(j, rubric, input)));
  const answered = records.filter((r) => r.values);
  return {
    rubric: { name: rubric.name, sha256: rubric.sha256 },
    aggregation,
    judges: records,
    aggregate: answered.length
      ? Object.fromEntries(
          rubric.fields.map((f) => [
            f.name,
            aggregate(
              answered.map((r) => r.values![f.name]!),
              aggregation,
            ),
          ]),
        )
      : null,
    failures: records.length - answered.length,
  };
}
