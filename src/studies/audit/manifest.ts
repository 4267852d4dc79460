// The audit study's manifest: the psychometric audit of ToM benchmarks (`mindscope audit`) and
// the simulated panels that check it (`mindscope simulate`), two commands and no suites. The
// audit command loads the statistics alone (an audit of matrix files loads no record schema,
// store or report), so nothing here loads the library.

import type { PluginManifest } from '../../app/index.js';

export const manifest = {
  name: 'audit',
  commands: [
    {
      commands: [
        {
          term: 'audit [options]',
          description:
            'psychometric audit of ToM benchmarks: response matrices (--matrix), a stored run (--run-id) or a score table (--scores)',
        },
      ],
      load: async () => (await import('./commands/audit.js')).registerAudit,
    },
    {
      commands: [{ term: 'simulate', description: 'simulated data with known structure' }],
      load: async () => (await import('./commands/simulate.js')).registerSimulate,
    },
  ],
  viewerReports: [
    {
      kind: 'audit',
      title: 'Audit reports',
      // Files whose names start with "audit" or contain "-audit" (audit.html, panel-audit.html).
      match: /(^|[-_.])audit/i,
      hint: "Write one into the store's folder with `mindscope audit ... --report FOLDER` (it writes FOLDER/audit.html), and it shows here.",
    },
  ],
  reportSections: [
    {
      title: 'Psychometric audit of the suites',
      flag: { name: 'audit', help: "add the psychometric audit of the run's suites (two or more suites, three or more subjects)" },
      render: async (ctx) => (await import('./report/section.js')).auditReportSection(ctx),
    },
  ],
} satisfies PluginManifest;
