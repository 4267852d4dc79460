// DialToM's context-degradation prompts (Appendix K.4) on the full release: the conversation
// history prompt fits every released prospective item (each carries its window as
// {conversation}); the summary prompt refuses them all, saying the files hold no summary.

import { describe, expect, it } from 'vitest';
import type { Item, McqPayload } from '../src/core/index.js';
import { createMcqTask, loadMcqTemplate, renderMcq } from '../src/protocols/index.js';
import { loadDialtom } from '../src/studies/dialtom/index.js';
import { SHARED, SHARED_DATA } from './shared-dir.js';

describe.skipIf(!SHARED)('context degradation on the released DialToM items', () => {
  it('history + states renders for all 523 prospective items; summary + states is refused with the reason', () => {
    const items = loadDialtom(SHARED_DATA, 'prospective').items as Item<McqPayload>[];
    expect(items).toHaveLength(523);
    const history = loadMcqTemplate('dialtom-history-states');
    const task = createMcqTask('dialtom-prospective', items, { template: history });
    expect(task.items).toHaveLength(523);
    for (const item of items) {
      const options = item.payload.options.map((text, i) => ({ label: String.fromCharCode(65 + i), text }));
      const prompt = renderMcq(history, { context: item.payload.context, question: item.payload.question, options, meta: item.meta });
      expect(prompt).toContain(
        `Conversation Context:\n${String(item.meta.conversation)}\n\nMental State of ${String(item.meta.recipient)}`,
      );
      expect(String(item.meta.conversation).split('\n').length).toBeGreaterThan(1);
    }
    expect(() => createMcqTask('dialtom-prospective', items, { template: loadMcqTemplate('dialtom-summary-states') })).toThrow(
      /523 of 523 items lack a field the template uses.*\{summary\}: the item file holds no "summary" for this window/,
    );
  });
});
