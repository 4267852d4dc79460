// Vision ToM: the Director Task and the animated triangles (Castelli et al.), with their judge panels and analyses.

import { definePlugin } from '../../app/index.js';
import { describeProtocol } from './protocols/describe-protocol.js';
import { directorProtocol } from './protocols/director-protocol.js';
import { manifest } from './manifest.js';
import { VISION_SUITES } from './suites.js';

export * from './protocols/director-records.js';
export * from './protocols/describe-records.js';
export * from './protocols/director-protocol.js';
export * from './protocols/describe-protocol.js';
export * from './world/index.js';
export * from './suites/index.js';
export * from './analysis/index.js';
export { VISION_SUITES } from './suites.js';
export * from './report/vision.js';
export * from './report/vision-report.js';
export * from './report/vision-charts.js';
export * from './report/director-figure.js';
export * from './report/profile-figure.js';
export * from './report/model-labs.js';
export * from './report/label-layout.js';

/** The vision study as a plugin. */
export default definePlugin({
  ...manifest,
  protocols: [directorProtocol, describeProtocol],
  suites: [...VISION_SUITES],
});
