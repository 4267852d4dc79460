// The protocol of each built-in suite, by name, for the report: which sections a run needs is
// known without loading every suite, protocol and provider (the registry). Kept equal to the
// registry's by tests/suite-protocols.test.ts.

/** The built-in protocols' names, in the registry's order. */
export const BUILTIN_PROTOCOL_NAMES: readonly string[] = ['mcq', 'conversation', 'episode', 'director', 'describe'];

/** The protocol of each built-in suite. */
export const BUILTIN_SUITE_PROTOCOLS: Readonly<Record<string, string>> = {
  tombench: 'mcq',
  tomato: 'mcq',
  'dialtom-retrospective': 'mcq',
  'dialtom-prospective': 'mcq',
  'dialtom-prospective-easy': 'mcq',
  'dialtom-counterfactual': 'mcq',
  hitom: 'mcq',
  tomi: 'mcq',
  bigtom: 'mcq',
  opentom: 'mcq',
  'mmtom-qa': 'mcq',
  cogtom: 'mcq',
  mcq: 'mcq',
  enacttom: 'episode',
  'generated-enacttom': 'episode',
  storyturn: 'conversation',
  'generated-storyturn': 'conversation',
  director: 'director',
  triangles: 'describe',
  'triangles-plain': 'describe',
  'triangles-frames': 'describe',
  'triangles-native-video': 'describe',
  'triangles-video': 'describe',
  'generated-tom': 'mcq',
};

/**
 * The protocols of a run's suites; a suite that is not built in (a plugin's) counts as every
 * protocol, so no report section is left out for it.
 */
export function suiteProtocols(suites: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const id of new Set(suites)) {
    const protocol = Object.hasOwn(BUILTIN_SUITE_PROTOCOLS, id) ? BUILTIN_SUITE_PROTOCOLS[id] : undefined;
    if (protocol === undefined) return new Set(BUILTIN_PROTOCOL_NAMES);
    out.add(protocol);
  }
  return out;
}
