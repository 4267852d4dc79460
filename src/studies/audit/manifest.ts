// The audit study's manifest: what the command line, the report and the viewer know of it
// without loading it.

import type { PluginManifest } from '../../app/index.js';

export const manifest = {
  name: 'audit',
  reportSections: [
    {
      title: 'Psychometric audit of the suites',
      flag: { name: 'audit', help: "add the psychometric audit of the run's suites (two or more suites, three or more subjects)" },
      render: async (ctx) => (await import('./report/section.js')).auditReportSection(ctx),
    },
  ],
} satisfies PluginManifest;
