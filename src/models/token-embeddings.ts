// Contextual token embeddings from a local GGUF model through node-llama-cpp's embedding API, for
// BERTScore. node-llama-cpp returns one vector per call: the pooled vector when the model pools
// (BERT-style embedding models), else the hidden state of the last token. For a causal
// (decoder-only) model without pooling, the hidden state of token i given tokens 1..i is the same
// whether or not later tokens follow, so evaluating each prefix and reading its last token gives
// exactly the contextual embedding of every token (n prefixes for n tokens: quadratic, fine for
// one-line inferences). Pooling models and bidirectional encoders cannot give token embeddings
// this way and are refused with the reason. The beginning-of-text token is left out of the result.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from '../core/index.js';
import { loadLlamaCpp } from './optional-llama.js';

export interface TokenEmbedder {
  /** The model file and what the vectors are. */
  readonly describe: string;
  /** One vector per token of the text (the beginning-of-text token left out). */
  embed(text: string): Promise<Float64Array[]>;
  close(): Promise<void>;
}

/**
 * Open a GGUF model as a token embedder. Refused, with the reason: a missing file, node-llama-cpp
 * not installed, a model that pools its embeddings or attends both ways, a vocabulary that
 * appends an end token (the prefix's last token would not be the text's).
 */
export async function openTokenEmbedder(path: string, opts: { threads?: number } = {}): Promise<TokenEmbedder> {
  const file = resolve(path);
  if (!existsSync(file)) throw new ConfigError(`${path}: no such GGUF file (BERTScore needs a local embedding model)`);
  const mod = await loadLlamaCpp('BERTScore');
  const llama = await mod.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  const model = await llama.loadModel({ modelPath: file });
  const meta = model.fileInfo?.metadata ?? {};
  const arch: string = meta.general?.architecture ?? 'unknown';
  const archMeta = meta[arch] ?? {};
  const pooling = Number(archMeta.pooling_type ?? 0);
  if (archMeta.attention?.causal === false || /bert|t5/i.test(arch))
    throw new ConfigError(
      `${path}: a ${arch} model attends both ways; its token embeddings cannot be read one prefix at a time (use a decoder-only GGUF)`,
    );
  if (pooling !== 0)
    throw new ConfigError(
      `${path}: the ${arch} model pools its embeddings (pooling_type ${pooling}); BERTScore needs one vector per token`,
    );
  if (model.tokens?.shouldAppendEosToken)
    throw new ConfigError(`${path}: the tokenizer appends an end token, so a prefix's last vector would not be its last token's`);
  const context = await model.createEmbeddingContext({
    contextSize: Math.min(model.trainContextSize ?? 512, 2048),
    threads: opts.threads ?? 1,
  });
  const bos: number | null = model.tokens?.bos ?? null;
  return {
    describe: `last hidden layer of ${file} (${arch}), one prefix per token`,
    async embed(text: string) {
      const tokens: number[] = [...model.tokenize(text)].filter((t: number) => t !== bos);
      const out: Float64Array[] = [];
      for (let i = 1; i <= tokens.length; i++) {
        const e = await context.getEmbeddingFor(tokens.slice(0, i));
        out.push(Float64Array.from(e.vector as number[]));
      }
      return out;
    },
    async close() {
      await context.dispose();
      await model.dispose();
    },
  };
}
