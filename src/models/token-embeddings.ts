// Contextual token embeddings from a local GGUF model through node-llama-cpp's embedding API, for
// BERTScore. node-llama-cpp returns one vector per call: the pooled vector when the model pools
// (BERT-style embedding models), else the hidden state of the last token. For a causal
// (decoder-only) model without pooling, the hidden state of token i given tokens 1..i is the same
// whether or not later tokens follow, so evaluating each prefix and reading its last token gives
// exactly the contextual embedding of every token (n prefixes for n tokens: quadratic, fine for
// one-line inferences). The beginning-of-text token is left out of the result.
//
// Bidirectional encoders (BERT, RoBERTa and their kin: the kind of model bert-score uses, such as
// the roberta-large of the DialToM paper) are recognised from the file's metadata before the
// weights load, and refused with the reason: every token of an encoder sees the whole text, so a
// prefix's last vector is not that token's vector in the text, and node-llama-cpp gives one vector
// per text (its addon reads llama_get_embeddings_seq, or llama_get_embeddings_ith(ctx, -1) when the
// model does not pool), never the vector of each token. Pooling decoders are refused likewise.

import { existsSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { ConfigError } from '../core/index.js';
import { loadLlamaCpp } from './optional-llama.js';

/** The model whose vectors a TokenEmbedder gives: what a BERTScore result reports as the model that scored. */
export interface EmbeddingModelInfo {
  /** The GGUF file (absolute path). */
  file: string;
  /** The model's own name (general.name), or the file's name. */
  name: string;
  /** general.architecture (llama, bert, ...). */
  architecture: string;
  /** decoder: causal attention (read one prefix per token); encoder: attends both ways. */
  kind: 'decoder' | 'encoder';
}

export interface TokenEmbedder {
  /** The model file and what the vectors are. */
  readonly describe: string;
  /** The model that gives the vectors. */
  readonly model: EmbeddingModelInfo;
  /** One vector per token of the text (the beginning-of-text token left out). */
  embed(text: string): Promise<Float64Array[]>;
  close(): Promise<void>;
}

/** Architectures whose attention is bidirectional (encoders), as llama.cpp names them. */
const ENCODER_ARCHITECTURES =
  /^(bert|roberta|xlm-roberta|nomic-bert|nomic-bert-moe|jina-bert-v2|jina-bert-v3|modern-bert|neo-bert|eurobert|t5encoder)$/i;

/**
 * What a GGUF file's metadata says of its model: name, architecture, whether it attends both
 * ways (an encoder: the architecture, or `ARCH.attention.causal` false) and its pooling type.
 */
export function classifyGgufModel(file: string, metadata: unknown): EmbeddingModelInfo & { pooling: number } {
  const meta = (metadata ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const general = meta.general as { architecture?: string; name?: string } | undefined;
  const architecture = general?.architecture ?? 'unknown';
  const arch = (meta[architecture] ?? {}) as { attention?: { causal?: boolean }; pooling_type?: number };
  const encoder = ENCODER_ARCHITECTURES.test(architecture) || arch.attention?.causal === false;
  return {
    file,
    name: String(general?.name ?? basename(file)),
    architecture,
    kind: encoder ? 'encoder' : 'decoder',
    pooling: Number(arch.pooling_type ?? 0),
  };
}

/** Why an encoder's token vectors cannot be read through node-llama-cpp (the error names the model). */
export function encoderRefusal(path: string, info: EmbeddingModelInfo, llamaVersion: string): string {
  return `${path}: ${info.name} is a bidirectional encoder (${info.architecture}), the kind of model bert-score uses (the DialToM paper: roberta-large); BERTScore needs one vector per token, and node-llama-cpp ${llamaVersion} gives one vector per text from an encoder (its pooled vector, or the last token's when the model does not pool), so an encoder's token vectors cannot be read through it. Use a decoder-only GGUF (its token vectors are read one prefix at a time); the result names the model that scored`;
}

/**
 * Open a GGUF model as a token embedder. Refused, with the reason: a missing file, node-llama-cpp
 * not installed, a bidirectional encoder (read from the metadata before the weights load), a
 * model that pools its embeddings, a vocabulary that appends an end token (the prefix's last
 * token would not be the text's).
 */
export async function openTokenEmbedder(path: string, opts: { threads?: number } = {}): Promise<TokenEmbedder> {
  const file = resolve(path);
  if (!existsSync(file)) throw new ConfigError(`${path}: no such GGUF file (BERTScore needs a local embedding model)`);
  const mod = await loadLlamaCpp('BERTScore');
  const header = await mod.readGgufFileInfo(file, {
    readTensorInfo: false,
    sourceType: 'filesystem',
    logWarnings: false,
    ignoreKeys: ['tokenizer.ggml.tokens', 'tokenizer.ggml.token_type', 'tokenizer.ggml.merges', 'tokenizer.ggml.scores'],
  });
  const info = classifyGgufModel(file, header.metadata);
  if (info.kind === 'encoder') throw new ConfigError(encoderRefusal(path, info, await llamaVersion(mod)));
  if (info.pooling !== 0)
    throw new ConfigError(
      `${path}: the ${info.architecture} model pools its embeddings (pooling_type ${info.pooling}); BERTScore needs one vector per token`,
    );
  const llama = await mod.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  const model = await llama.loadModel({ modelPath: file });
  if (model.tokens?.shouldAppendEosToken) {
    await model.dispose();
    throw new ConfigError(`${path}: the tokenizer appends an end token, so a prefix's last vector would not be its last token's`);
  }
  const context = await model.createEmbeddingContext({
    contextSize: Math.min(model.trainContextSize ?? 512, 2048),
    threads: opts.threads ?? 1,
  });
  const bos: number | null = model.tokens?.bos ?? null;
  return {
    describe: `last hidden layer of ${file} (${info.architecture}), one prefix per token`,
    model: { file: info.file, name: info.name, architecture: info.architecture, kind: info.kind },
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

/** The installed node-llama-cpp's version, for errors. */
// biome-ignore lint/suspicious/noExplicitAny: the optional module's types are not a dependency
async function llamaVersion(mod: any): Promise<string> {
  try {
    return String(await mod.getModuleVersion());
  } catch {
    return '(version unknown)';
  }
}
