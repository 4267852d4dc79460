// Vision ToM: the Director Task and the animated triangles (Castelli et al.), with their judge panels and analyses.

import { definePlugin } from '../../app/index.js';
import { directorProtocol, describeProtocol } from '../../protocols/index.js';
import { manifest } from './manifest.js';
import { VISION_SUITES } from './suites.js';

export * from './report/vision.js';
export * from './report/vision-report.js';
export * from './report/vision-charts.js';

/** The vision study as a plugin. */
export default definePlugin({
  ...manifest,
  protocols: [directorProtocol, describeProtocol],
  suites: [...VISION_SUITES],
});
