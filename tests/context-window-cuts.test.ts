// A prompt cut to fit a context window is cut between characters: text without spaces to cut
// at (emoji, scripts written without them) never loses half of a UTF-16 surrogate pair, which
// would send the model a lone surrogate (an invalid character) and key the cache by it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContextFitter } from '../src/models/context-window.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server?.stop();
});

const LONE_SURROGATE = /\p{Cs}/u;

describe('a prompt cut to fit a context window', () => {
  it('keeps every surrogate pair whole, wherever the cut falls', async () => {
    // The model server counts no tokens: the window is estimated at 4 characters a token.
    const story = '😀🎉字'.repeat(120);
    let cut = 0;
    for (let window = 12; window <= 90; window++) {
      const fitter = new ContextFitter(window, `${server.url}/v1`, 'ok', 'test', undefined);
      for (const last of [false, true]) {
        const messages = last
          ? [{ role: 'user' as const, content: story }]
          : [
              { role: 'system' as const, content: 'Answer with a letter.' },
              { role: 'user' as const, content: story },
              { role: 'user' as const, content: 'Where is the ball?' },
            ];
        let fitted: Awaited<ReturnType<ContextFitter['fit']>>;
        try {
          fitted = await fitter.fit(messages, 4, 5000);
        } catch {
          continue;
        }
        for (const m of fitted.messages) {
          const text = String(m.content);
          expect(LONE_SURROGATE.test(text), `window ${window}: ${JSON.stringify(text.slice(0, 4))}`).toBe(false);
        }
        expect(fitted.truncation).toBeDefined();
        cut++;
      }
    }
    expect(cut).toBeGreaterThan(100);
  });
});
