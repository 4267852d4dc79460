// The report's table of built-in suites and their protocols (app/suite-protocols.ts) is the
// registry's: the report decides its sections from it without loading the registry.

import { describe, expect, it } from 'vitest';
import { createRegistry } from '../src/app/index.js';
import { BUILTIN_PROTOCOL_NAMES, BUILTIN_SUITE_PROTOCOLS, suiteProtocols } from '../src/app/suite-protocols.js';

describe('built-in suite protocols', () => {
  const registry = createRegistry();

  it('names every built-in suite with the protocol the registry gives it, and no other suite', () => {
    expect(BUILTIN_SUITE_PROTOCOLS).toEqual(Object.fromEntries(registry.suites().map((s) => [s.id, s.protocol])));
  });

  it('names the built-in protocols in the registry order', () => {
    expect(BUILTIN_PROTOCOL_NAMES).toEqual(registry.protocols.map((p) => p.name));
  });

  it('gives the protocols of known suites, and every protocol for a suite it does not know', () => {
    expect([...suiteProtocols(['generated-tom', 'tomi', 'director'])]).toEqual(['mcq', 'director']);
    expect([...suiteProtocols(['enacttom', 'storyturn'])]).toEqual(['episode', 'conversation']);
    expect([...suiteProtocols(['tomi', 'a-plugin-suite'])]).toEqual(['mcq', 'conversation', 'episode', 'director', 'describe']);
    expect([...suiteProtocols(['constructor'])]).toEqual([...BUILTIN_PROTOCOL_NAMES]);
    expect(suiteProtocols([]).size).toBe(0);
  });
});
