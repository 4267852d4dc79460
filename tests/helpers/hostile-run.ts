// A run whose subject name, item text and reply carry script payloads, written through the
// store's own interface: what a hostile model or data file could put there.

import { contentHash, type Item } from '../../src/core/index.js';
import type { Store } from '../../src/index.js';

export async function writeHostileRun(store: Store, runId: string): Promise<void> {
  const subject = { id: 's-hostile', spec: 'agent:<img src=x onerror=window.__xss=1>', settings: {} };
  const item: Item = {
    suite: 'hostile',
    id: '<b>x</b>',
    category: 'belief',
    payload: {
      context: 'Story <img src=x onerror="window.__xss=2">',
      question: 'Where? <script>window.__xss=4</script>',
      options: ['a', 'b'],
      answerIndex: 0,
    },
    answer: 'a',
    meta: { originalLabel: '<svg onload=window.__xss=5>' },
  };
  const hash = contentHash({ ...item, suite: `${runId}-hostile` });
  await store.createRun({ id: runId, createdAt: new Date().toISOString(), config: { note: '<script>window.__xss=6</script>' } });
  await store.upsertSubject(subject);
  await store.setPlan(runId, [{ subjectId: subject.id, suite: 'hostile', planned: 1 }]);
  await store.putItems([{ hash, item }]);
  const reply = '<script>window.__xss=3</script> <img src=x onerror="window.__xss=3"> Answer: B';
  await store.recordDone(
    { runId, subjectId: subject.id, suite: 'hostile', itemId: item.id, replicate: 0 },
    hash,
    {
      transcript: {
        protocol: 'mcq',
        calls: [
          {
            kind: 'chat',
            messages: [
              {
                role: 'user',
                content: [
                  { type: 'text', text: 'Story <img src=x onerror="window.__xss=2">' },
                  { type: 'image', url: 'javascript:window.__xss=7' },
                ],
              },
            ],
            settings: { temperature: 0, maxTokens: 64 },
            response: {
              text: reply,
              usage: { inputTokens: 10, outputTokens: 5 },
              latencyMs: 1,
              reasoning: { text: 'Thinking <script>window.__xss=8</script> about it', tokens: 12 },
            },
            cached: false,
            attempts: 1,
            costUsd: 0,
          },
        ],
        detail: {
          presented: [
            { label: 'A', text: 'a <i onmouseover=alert(1)>' },
            { label: 'B', text: 'b' },
          ],
          correctLabel: 'A',
          reply,
          parsed: 'B',
          parseMethod: 'answer-tag',
        },
      },
      score: { scorer: 'mcq-exact', value: 0, detail: { parsed: 'B', correctLabel: 'A', parseFailed: false } },
      usage: { inputTokens: 10, outputTokens: 5 },
      costUsd: 0,
      latencyMs: 1,
      cachedCalls: 0,
      totalCalls: 1,
    },
    1,
  );
  await store.flush();
}
