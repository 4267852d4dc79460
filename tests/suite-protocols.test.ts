// The suites' protocols as the plugins' manifests declare them (app/suite-protocols.ts) are the
// registry's: the report decides its sections from them without loading the registry.

import { describe, expect, it } from 'vitest';
import { createRegistry } from '../src/app/index.js';
import { declaredSuiteProtocols, suiteProtocols } from '../src/app/suite-protocols.js';
import { BUILTIN_STUDIES } from '../src/builtin-studies.js';

describe('suite protocols from the manifests', () => {
  const registry = createRegistry();
  const manifests = BUILTIN_STUDIES.map((s) => s.manifest);

  it('names every registered suite with the protocol the registry gives it, and no other suite', () => {
    expect(Object.fromEntries(declaredSuiteProtocols(manifests))).toEqual(
      Object.fromEntries(registry.suites().map((s) => [s.id, s.protocol])),
    );
  });

  it('gives the protocols of known suites, and every protocol for a suite it does not know', () => {
    expect([...suiteProtocols(['generated-tom', 'tomi', 'director'], manifests)]).toEqual(['mcq', 'director']);
    expect([...suiteProtocols(['enacttom', 'storyturn'], manifests)]).toEqual(['episode', 'conversation']);
    const every = new Set(registry.protocols.map((p) => p.name));
    expect(new Set(suiteProtocols(['tomi', 'a-plugin-suite'], manifests))).toEqual(every);
    expect(new Set(suiteProtocols(['constructor'], manifests))).toEqual(every);
    expect(suiteProtocols([], manifests).size).toBe(0);
  });

  it("reads a loaded plugin's suites as well as its declared ones", () => {
    const plugin = { name: 'p', suites: [{ id: 'x', protocol: 'mcq' }] } as never;
    expect([...suiteProtocols(['x'], [plugin])]).toEqual(['mcq']);
  });
});
