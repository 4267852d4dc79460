// The probes study's manifest: the `probe` command, the report section of probe runs and the
// viewer panel of a probe trial (an item with its variants side by side), all loaded lazily.

import type { PluginManifest } from '../../app/index.js';

export const manifest = {
  name: 'probes',
  suiteProtocols: { 'probe-sensitivity': 'probe', 'probe-beliefs': 'probe' },
  suiteSummaries: {
    'probe-sensitivity': {
      describe:
        'validity probes: generated belief questions of orders 1-4 with the alterations that should (and should not) change the answer',
      needsData: false,
    },
    'probe-beliefs': {
      describe: 'validity probes: explicit belief tracking on generated stories (beliefs of orders 1 and 2 listed at checkpoints)',
      needsData: false,
    },
  },
  commands: [
    {
      commands: [
        {
          term: 'probe [options]',
          description:
            'validity probes: invariance (option order, names, objects, paraphrases), sensitivity (belief-story alterations), shortcut baselines (no story) and explicit belief tracking',
        },
      ],
      load: async () => (await import('./commands/probe.js')).registerProbe,
    },
  ],
  reportSections: [
    {
      title: 'Validity probes',
      protocols: ['probe'],
      render: async (ctx) => (await import('./report/section.js')).probeReportSection(ctx.store, ctx.runId),
    },
  ],
  viewerPanels: [{ protocol: 'probe', record: async (t, ctx) => (await import('./view/record.js')).probeView(t, ctx) }],
} satisfies PluginManifest;
