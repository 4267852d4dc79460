// Google's Gemini generateContent protocol through the official SDK (@google/genai, loaded on
// the first call), with thinking (--thinking-budget; thought summaries are kept), structured
// output through responseSchema, and implicit-cache token counts.

import type { GenerateContentParameters, GoogleGenAI } from '@google/genai';
import type { ChatMessage, ChatResponse } from '../../core/index.js';
import { capabilitiesFor, type ModelCapabilities } from '../capabilities.js';
import type { ChatRequest } from '../chat-model.js';
import { messageText } from '../chat-model.js';
import { ModelCallError } from '../call-error.js';
import { type CallSite, malformed, parseDataUrl } from '../http.js';
import { SdkChatModel, type SdkConnection, type SdkTarget } from '../sdk-chat-model.js';
import { fromGoogleError } from '../sdk-errors.js';
import { geminiResponseSchema } from '../structured-output.js';
import { GoogleBatchApi } from '../batch/google-batch.js';

export interface GoogleOptions {
  model: string;
  baseUrl: string;
  apiKey: string;
}

// Images and videos alike: inline data (a data URL; Gemini takes video/mp4, webm, mov, ... inline
// up to its request-size limit) or a file URI (the Files API), with the part's media type.
function toParts(m: ChatMessage): unknown[] {
  if (typeof m.content === 'string') return [{ text: m.content }];
  return m.content.map((p) => {
    if (p.type === 'text') return { text: p.text };
    const data = parseDataUrl(p.url);
    return data
      ? { inlineData: { mimeType: data.mediaType, data: data.data } }
      : { fileData: { fileUri: p.url, mimeType: p.mediaType ?? (p.type === 'video' ? 'video/mp4' : 'image/png') } };
  });
}

/** The generateContent request of a call in the SDK's form `{ model, contents, config }` (also a batch-mode inlined request). */
function geminiRequest(model: string, caps: ModelCapabilities, req: ChatRequest): Record<string, unknown> {
  const s = req.settings;
  const system = req.messages
    .filter((m) => m.role === 'system')
    .map(messageText)
    .join('\n\n');
  const config: Record<string, unknown> = { temperature: s.temperature, maxOutputTokens: s.maxTokens };
  if (system) config.systemInstruction = { parts: [{ text: system }] };
  if (s.topP !== undefined) config.topP = s.topP;
  if (s.seed !== undefined) config.seed = s.seed;
  if (s.stop?.length) config.stopSequences = s.stop;
  if (caps.reasoningControl === 'thinking-budget') {
    // Thinking models keep their thought summaries; a budget of 0 turns thinking off where the model allows it.
    const thinkingConfig: Record<string, unknown> = {};
    if (s.thinkingBudget !== undefined) thinkingConfig.thinkingBudget = s.thinkingBudget;
    if (s.thinkingBudget !== 0) thinkingConfig.includeThoughts = true;
    config.thinkingConfig = thinkingConfig;
  }
  if (s.responseSchema && caps.structuredOutput) {
    config.responseMimeType = 'application/json';
    config.responseSchema = geminiResponseSchema(s.responseSchema.schema);
  }
  return {
    model,
    contents: req.messages
      .filter((m) => m.role !== 'system')
      .map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: toParts(m) })),
    config,
  };
}

interface WireGenerateContent {
  modelVersion?: string;
  promptFeedback?: { blockReason?: string };
  candidates?: Array<{ content?: { parts?: Array<{ text?: string; thought?: boolean }> }; finishReason?: string }>;
  usageMetadata?: {
    promptTokenCount?: number;
    candidatesTokenCount?: number;
    thoughtsTokenCount?: number;
    cachedContentTokenCount?: number;
  };
}

/** A generateContent response body as a ChatResponse: thought parts are the reasoning, the others the reply. */
function decodeGemini(label: string, body: unknown, latencyMs: number): ChatResponse {
  const json = body as WireGenerateContent | undefined;
  const candidate = json?.candidates?.[0];
  if (!candidate) {
    const blocked = json?.promptFeedback?.blockReason;
    if (blocked) throw new ModelCallError(`${label}: the prompt was blocked (${blocked})`, 'bad_request');
    malformed(label, 'no candidates[0]');
  }
  const parts = candidate.content?.parts ?? [];
  const text = parts
    .filter((p) => !p.thought)
    .map((p) => p.text ?? '')
    .join('');
  const thoughts = parts
    .filter((p) => p.thought)
    .map((p) => p.text ?? '')
    .join('');
  const u = json?.usageMetadata ?? {};
  const thoughtTokens = u.thoughtsTokenCount ?? 0;
  // Gemini counts thinking apart from the candidates; both are billed as output.
  const response: ChatResponse = {
    text,
    usage: { inputTokens: u.promptTokenCount ?? 0, outputTokens: (u.candidatesTokenCount ?? 0) + thoughtTokens },
    latencyMs,
    modelReported: json?.modelVersion,
    finishReason: candidate.finishReason,
  };
  if (u.cachedContentTokenCount) response.usage.cachedInputTokens = u.cachedContentTokenCount;
  if (candidate.finishReason === 'MAX_TOKENS') response.truncated = true;
  if (thoughtTokens || thoughts) {
    response.reasoning = {};
    if (thoughts) response.reasoning.text = thoughts;
    if (thoughtTokens) response.reasoning.tokens = thoughtTokens;
  }
  return response;
}

type GenAiModule = typeof import('@google/genai');

/** `google:MODEL` (Gemini) through the official SDK (retries off: the runner owns them), with thinking budgets and response schemas. */
export class GoogleChatModel extends SdkChatModel<GoogleGenAI, GenAiModule> {
  constructor(opts: GoogleOptions) {
    super({
      provider: 'google',
      model: opts.model,
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      spec: () => `google:${opts.model}`,
      capabilities: capabilitiesFor('google', opts.model),
      api: 'generateContent',
      encode: geminiRequest,
      decode: decodeGemini,
    });
  }

  protected async connect({ url, apiKey }: SdkTarget): Promise<SdkConnection<GoogleGenAI, GenAiModule>> {
    const mod = await import('@google/genai');
    // vertexai false: GOOGLE_GENAI_USE_VERTEXAI in the environment must not send the key elsewhere. No retryOptions: no SDK retries.
    const client = new mod.GoogleGenAI({ apiKey, vertexai: false, httpOptions: { baseUrl: url, apiVersion: 'v1beta' } });
    return { client, mod };
  }

  protected send(client: GoogleGenAI, body: unknown, timeout: number): Promise<unknown> {
    const request = body as GenerateContentParameters;
    return client.models.generateContent({ ...request, config: { ...request.config, httpOptions: { timeout } } });
  }

  protected callError(err: unknown, mod: GenAiModule, site: CallSite): ModelCallError {
    return fromGoogleError(err, mod.ApiError, site);
  }

  /** Gemini batch mode on the same client. */
  batchApi(): GoogleBatchApi {
    const site = this.site(600_000);
    return new GoogleBatchApi(
      this.model,
      () => this.connection(),
      (err, mod) => this.callError(err, mod, site),
    );
  }
}
