// The vision study's manifest: what the command line, the report and the viewer know of it
// without loading its suites and protocols.

import type { PluginManifest } from '../../app/index.js';

export const manifest = {
  name: 'vision',
  suiteProtocols: {
    director: 'director',
    triangles: 'describe',
    'triangles-plain': 'describe',
    'triangles-frames': 'describe',
    'triangles-native-video': 'describe',
    'triangles-video': 'describe',
  },
} satisfies PluginManifest;
