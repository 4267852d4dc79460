// BERTScore's model: the result names the model that scored (file, name, architecture, kind), and
// an encoder GGUF (the kind of model the DialToM paper scores with: roberta-large) is recognised
// from its metadata and refused with the reason, which is checked here against node-llama-cpp
// itself: for an encoder its embedding API gives one vector per text, never one per token.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyGgufModel, openTokenEmbedder } from '../src/models/index.js';
import { llamaInstalled } from './helpers/llama.js';
import { runCli } from './helpers/run-cli.js';

const MODELS = join(__dirname, 'fixtures', 'models');
const ENCODER = join(MODELS, 'tiny-bert-f32.gguf');
const DECODER = join(MODELS, 'stories260k-f32.gguf');
// One unit with one human reference, and one model's inference for it.
const DIR = mkdtempSync(join(tmpdir(), 'mindscope-bertscore-'));
writeFileSync(join(DIR, 'refs.csv'), 'WorkerId,dataset,mental_state,sub_id,inferences,wc\nw1,MI,Belief,"5, 0",Lily was sad.,3\n');
writeFileSync(join(DIR, 'hyps.csv'), 'model,dataset,mental_state,sub_id,inference\nm,MI,Belief,"5, 0",Lily was sad.\n');
const analyze = (model: string, json = true) =>
  runCli([
    'analyze',
    'dialtom',
    '--references',
    join(DIR, 'refs.csv'),
    '--inferences',
    join(DIR, 'hyps.csv'),
    '--bertscore-model',
    model,
    ...(json ? ['--json'] : []),
  ]);

describe('the kind of an embedding model, from its GGUF metadata', () => {
  it('an encoder by its architecture or by non-causal attention; a decoder otherwise', () => {
    expect(classifyGgufModel('/m/r.gguf', { general: { architecture: 'bert', name: 'roberta-large' }, bert: { pooling_type: 0 } })).toEqual(
      {
        file: '/m/r.gguf',
        name: 'roberta-large',
        architecture: 'bert',
        kind: 'encoder',
        pooling: 0,
      },
    );
    expect(classifyGgufModel('/m/x.gguf', { general: { architecture: 'custom' }, custom: { attention: { causal: false } } })).toMatchObject(
      {
        name: 'x.gguf',
        kind: 'encoder',
      },
    );
    expect(classifyGgufModel('/m/l.gguf', { general: { architecture: 'llama', name: 'l' }, llama: {} })).toMatchObject({
      kind: 'decoder',
      pooling: 0,
    });
  });
});

describe.skipIf(!llamaInstalled)('BERTScore through node-llama-cpp', () => {
  it("node-llama-cpp reads the encoder fixture as bert and gives one vector per text, whatever the text's length", async () => {
    const mod = await import('node-llama-cpp' as string);
    const llama = await mod.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
    const model = await llama.loadModel({ modelPath: ENCODER });
    try {
      expect(model.fileInfo.metadata.general.architecture).toBe('bert');
      expect(model.fileInfo.metadata.bert.attention.causal).toBe(false);
      const context = await model.createEmbeddingContext({ contextSize: 64, threads: 1 });
      const short = await context.getEmbeddingFor('the client feels sad');
      const long = await context.getEmbeddingFor('the client feels sad . i want to quit , she is happy');
      expect(short.vector).toHaveLength(16);
      expect(long.vector).toHaveLength(16);
      await context.dispose();
    } finally {
      await model.dispose();
    }
  }, 120_000);

  it('refuses the encoder, naming it and the reason; the CLI says so', async () => {
    const reason =
      /tiny-bert-f32\.gguf: tiny-bert-test is a bidirectional encoder \(bert\), the kind of model bert-score uses \(the DialToM paper: roberta-large\); BERTScore needs one vector per token, and node-llama-cpp [\d.]+ gives one vector per text from an encoder/;
    await expect(openTokenEmbedder(ENCODER)).rejects.toThrow(reason);
    const r = await analyze(ENCODER);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(reason);
    expect(r.stderr).toMatch(/Use a decoder-only GGUF/);
  }, 120_000);

  it('a decoder scores, and the result names it', async () => {
    const r = await analyze(DECODER);
    expect(r.code, r.stderr).toBe(0);
    const [bs] = JSON.parse(r.stdout).bertscore;
    expect(bs.embeddingModel).toEqual({ file: DECODER, name: 'tinyllamas-stories-260k', architecture: 'llama', kind: 'decoder' });
    expect(bs).toMatchObject({ model: 'm', units: 1 });
    // The inference is its reference: F1 1.
    expect(bs.f1).toBeCloseTo(1, 10);
    const text = await analyze(DECODER, false);
    expect(text.stdout).toContain(
      `BERTScore (scored by tinyllamas-stories-260k (${DECODER}; llama, decoder-only: last hidden layer, one prefix per token), not rescaled; the paper's BERTScore is roberta-large's, an encoder's: not comparable with another model's)`,
    );
  }, 120_000);
});
