// Maintainers' tool: write data/manifest.json (the public ToM datasets mindscope fetches on
// demand) from a local copy of the released files laid out as the loaders read them:
//   node scripts/make-data-manifest.mjs ../shared/data
// Each file's SHA-256 and size are computed here; sources, licences and citations are below.

import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = process.argv[2];
if (!root) throw new Error('usage: node scripts/make-data-manifest.mjs DATA_ROOT');

/** folder -> where the files come from, how each cache path maps to a path in the source, licence, citation. */
const DATASETS = [
  {
    id: 'tombench',
    suites: ['tombench'],
    source: { kind: 'github', repo: 'zhchen18/ToMBench', revision: '4f491f07' },
    sourcePath: (p) => `data/${p}`,
    licence: 'MIT (evaluation use)',
    citation: 'Chen et al. (2024). ToMBench: Benchmarking Theory of Mind in Large Language Models. ACL 2024.',
  },
  {
    id: 'tomato',
    suites: ['tomato'],
    source: { kind: 'github', repo: 'nttmdlab-nlp/ToMATO', revision: 'b8599487' },
    sourcePath: (p) => `dataset/${p}`,
    licence: 'Meta Llama 3 Community License',
    citation:
      'Shinoda et al. (2025). ToMATO: Verbalizing the Mental States of Role-Playing LLMs for Benchmarking Theory of Mind. AAAI 2025.',
  },
  {
    id: 'dialtom',
    suites: ['dialtom-retrospective', 'dialtom-prospective', 'dialtom-prospective-easy', 'dialtom-counterfactual'],
    source: { kind: 'github', repo: 'Stealth-py/DialToM', revision: '05d5be45' },
    sourcePath: (p) => p,
    licence: 'MIT',
    citation:
      'Yadav, Achananuparp, Jiang, Lim (2026). DialToM: A Theory of Mind Benchmark for Forecasting State-Driven Dialogue Trajectories. arXiv:2604.20443.',
  },
  {
    id: 'hitom',
    suites: ['hitom'],
    source: { kind: 'github', repo: 'ying-hui-he/Hi-ToM_dataset', revision: '56dda76f' },
    sourcePath: (p) => p,
    licence: 'Apache-2.0',
    citation:
      'Wu et al. (2023). Hi-ToM: A Benchmark for Evaluating Higher-Order Theory of Mind Reasoning in Large Language Models. Findings of EMNLP 2023.',
  },
  {
    id: 'tomi',
    suites: ['tomi'],
    // The released fb_all files are not at a path of the repository that could be checked from
    // here: fetched through a mirror only (MINDSCOPE_DATA_MIRROR), or given with --data.
    source: { kind: 'mirror-only', repo: 'facebookresearch/ToMi', revision: 'dea2bca9' },
    sourcePath: (p) => p,
    licence: 'CC BY-NC 4.0 (non-commercial)',
    citation: 'Le, Boureau, Nickel (2019). Revisiting the Evaluation of Theory of Mind through Question Answering. EMNLP-IJCNLP 2019.',
  },
  {
    id: 'bigtom',
    suites: ['bigtom'],
    source: { kind: 'github', repo: 'cicl-stanford/procedural-evals-tom', revision: 'fe647d68' },
    sourcePath: (p) => (p.startsWith('expert_data/') ? `data/${p}` : p === 'LICENSE' ? p : `data/bigtom/${p}`),
    licence: 'MIT',
    citation:
      'Gandhi, Fränken, Gerstenberg, Goodman (2023). Understanding Social Reasoning in Language Models with Language Models. NeurIPS 2023 Datasets and Benchmarks.',
  },
  {
    id: 'opentom',
    suites: ['opentom'],
    source: { kind: 'github', repo: 'seacowx/OpenToM', revision: '3f22b662' },
    sourcePath: (p) => (p === 'LICENSE' ? p : `data/opentom_data/${p}`),
    licence: 'CC BY-NC 4.0 (non-commercial)',
    citation:
      'Xu et al. (2024). OpenToM: A Comprehensive Benchmark for Evaluating Theory-of-Mind Reasoning Capabilities of Large Language Models. ACL 2024.',
  },
  {
    id: 'mmtom-qa',
    suites: ['mmtom-qa'],
    source: { kind: 'github', repo: 'chuanyangjin/MMToM-QA', revision: 'cba94f39' },
    sourcePath: (p) => (p === 'LICENSE' ? p : `Benchmark/${p}`),
    licence: 'MIT',
    citation: 'Jin et al. (2024). MMToM-QA: Multimodal Theory of Mind Question Answering. ACL 2024.',
  },
  {
    id: 'enacttom',
    suites: ['enacttom'],
    source: { kind: 'github', repo: 'ThePickleGawd/EnactTom', revision: '953e07e1' },
    sourcePath: (p) => (p === 'LICENSE' ? p : `enacttom/task_gen/template/${p}`),
    licence: 'MIT',
    citation: 'EnactToM: An Evolving Benchmark for Functional Theory of Mind in Embodied Agents (2026).',
  },
];

function* walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* walk(p);
    else yield p;
  }
}

const datasets = DATASETS.map(({ sourcePath, ...d }) => ({
  ...d,
  files: [...walk(join(root, d.id))].map((file) => {
    const path = relative(join(root, d.id), file);
    const bytes = readFileSync(file);
    return { path, source: sourcePath(path), sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
  }),
}));
writeFileSync('data/manifest.json', `${JSON.stringify({ version: 1, datasets }, null, 2)}\n`);
console.log(`data/manifest.json: ${datasets.length} datasets, ${datasets.reduce((n, d) => n + d.files.length, 0)} files`);
