// Validity probes as a plugin: whether a right answer survives changes that should not matter
// (invariance), follows changes that should (sensitivity), needs the story at all (shortcut
// baselines), and rests on a belief state the subject can state (explicit belief tracking).
// Named exports: the probe protocol, the variant builders and the analyses (mindscope/studies/probes).

import { definePlugin } from '../../app/index.js';
import { manifest } from './manifest.js';
import { probeProtocol } from './protocol/probe-protocol.js';
import { PROBE_SUITES } from './suites.js';

export * from './analysis/index.js';
export { probeProtocol, lengthOnly } from './protocol/probe-protocol.js';
export { PROBE_FAMILIES, PROBE_RECORDS, type ProbeDetail, type ProbeFamily, type VariantResult } from './protocol/records.js';
export type { ProbePayload, ProbeVariant, BeliefStory } from './protocol/payload.js';
export { trackedBeliefs } from './protocol/belief-listing.js';
export { ALTERATIONS, alterStory, type Alteration } from './world/alterations.js';
export { probeItems, probeSuite, probeSuiteId, type ProbeOptions } from './suites.js';

/** The probes study as a plugin: the probe protocol (and its reference agent agent:options-only), two generated probe suites, a command, a report section and a viewer panel. */
export default definePlugin({ ...manifest, protocols: [probeProtocol], suites: [...PROBE_SUITES] });
