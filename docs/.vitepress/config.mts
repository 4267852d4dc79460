// The documentation site: VitePress over the Markdown pages of docs/. A dead link fails the build
// (npm run docs:build), so every page the navigation or a page names must exist.

import { defineConfig } from 'vitepress';

const guide = [
  {
    text: 'Guides',
    items: [
      { text: 'Getting started', link: '/guide/getting-started' },
      { text: 'Your own data', link: '/guide/your-own-data' },
      { text: 'Models and providers', link: '/guide/models-and-providers' },
      { text: 'Running at scale', link: '/guide/running-at-scale' },
      { text: 'The viewer', link: '/guide/viewer' },
      { text: 'The store and exports', link: '/guide/store-and-exports' },
      { text: 'Config files and plugins', link: '/guide/plugins' },
    ],
  },
  {
    text: 'Analyses',
    items: [
      { text: 'The audit', link: '/guide/audit' },
      { text: 'Item response theory', link: '/guide/irt' },
      { text: 'Statistics', link: '/guide/statistics' },
    ],
  },
  {
    text: 'Studies',
    items: [
      { text: 'Literal benchmarks', link: '/studies/literal' },
      { text: 'StoryTurn', link: '/studies/storyturn' },
      { text: 'DialToM', link: '/studies/dialtom' },
      { text: 'EnactToM', link: '/studies/enacttom' },
      { text: 'Vision', link: '/studies/vision' },
      { text: 'Validity probes', link: '/studies/probes' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: 'Command line', link: '/reference/cli' },
      { text: 'JSON shapes', link: '/reference/json-shapes' },
      { text: 'Architecture', link: '/architecture' },
      { text: 'Performance', link: '/performance' },
    ],
  },
];

export default defineConfig({
  title: 'mindscope',
  description: 'Run, generate and audit Theory-of-Mind evaluations of language models',
  cleanUrls: true,
  ignoreDeadLinks: false,
  lastUpdated: false,
  srcExclude: ['**/node_modules/**'],
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/guide/getting-started' },
      { text: 'Studies', link: '/studies/literal' },
      { text: 'Reference', link: '/reference/cli' },
    ],
    sidebar: guide,
    outline: { level: [2, 3] },
    search: { provider: 'local' },
  },
});
