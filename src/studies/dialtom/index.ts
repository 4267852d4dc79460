// DialToM: literal (retrospective) and functional (prospective) probes of mind reading in dialogue, item building, written inferences and their analyses.

import { definePlugin } from '../../app/index.js';
import { manifest } from './manifest.js';
import { DIALTOM_SUITES } from './suites.js';

/** The dialtom study as a plugin. */
export default definePlugin({
  ...manifest,
  suites: [...DIALTOM_SUITES],
});

// The released items, and items built from dialogues (by hand-written files or a model writer).
export { loadDialtom, DIALTOM_ATTRIBUTES, DIALTOM_ROLES, NONE_OF_THE_ABOVE, type DialtomTask } from './suites/dialtom.js';
export * from './suites/dialtom-builder.js';
export { readDialtomWindows } from './suites/dialtom-windows.js';
export { modelDialtomWriter } from './app/dialtom-writer.js';
// Items written with the paper's prompts (Appendices K.1-K.2), and summaries for released items.
export { writingPrompts } from './manifest.js';
export * from './suites/writing-prompts.js';
export { paperDialtomWriter, type PaperWriterOptions, type WritingPromptName } from './app/paper-writer.js';
export type { WritingLog } from './app/ask-checked.js';
export * from './app/released-summaries.js';
// Written inferences: elicited from models, judged, scored by BERTScore and by n-gram overlap.
export * from './suites/written-inference.js';
export * from './app/dialtom-inferences.js';
export * from './analysis/inference-overlap.js';
// Pairwise judging of teacher traces; teacher traces from a stored run, masked by rules or by a model.
export * from './app/trace-pairs.js';
export * from './app/teacher-traces.js';
export * from './app/trace-masker.js';
// Analyses of stored runs, of published rates and of the item set.
export * from './analysis/rate-table.js';
export * from './analysis/dialtom-gaps.js';
export * from './analysis/dialtom-run.js';
export * from './analysis/dialtom-extras.js';
export * from './analysis/dialtom-stats.js';
// Cross-task agreement, retention after verification, performance against model scale.
export * from './analysis/correlation-test.js';
export * from './analysis/cross-task.js';
export * from './analysis/retention.js';
export * from './analysis/model-scale.js';
// The easy-hard test from published rates (Table 22).
export * from './analysis/published-easy-hard.js';
export * from './analysis/easy-hard-rates.js';
