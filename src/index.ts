// mindscope's public library API: what most users need to run, extend, score and read back an
// evaluation. The building blocks behind it have entry points of their own, by layer:
//   mindscope/core       types, record schemas, the run specification, hashing, seeded RNG, errors, file readers
//   mindscope/stats      statistics on typed arrays (correlation, bootstrap, factor analysis, agreement, ...)
//   mindscope/worlds     simulators of the kernel's suites: the belief tracker behind the generated stories
//   mindscope/models     the ChatModel interface and providers
//   mindscope/store      the Store interface, SQLite and PostgreSQL, response matrices
//   mindscope/runner     planning, limits, retries, the call cache, costs
//   mindscope/protocols  the protocol contract and the multiple-choice protocol
//   mindscope/subjects   reference subjects
//   mindscope/judges     rubrics, judge panels, validation
//   mindscope/suites     the suite contract, generic MCQ files, procedural stories, data on demand
//   mindscope/analysis   analyses of stored runs
//   mindscope/report     tables, charts and HTML reports
//   mindscope/view       the transcript viewer's server
//   mindscope/studies/*  the seed studies as plugins, each with its protocols, simulator, suites and analyses
//                        (studies/vision: the Director Task and the animated triangles)
// and a few light ones, for commands that should start fast:
//   mindscope/run-report opening a store, finding a run, writing its HTML report
//   mindscope/audit      the audit and the response-matrix files it reads, on the statistics alone
//   mindscope/matrix     the response-matrix files and the CSV readers under them, without the record schemas
//   mindscope/errors     the error classes, without the rest of core
//   mindscope/cli        for command files: option parsers, the default store, --json output
// The command line uses nothing but these entry points.

import { setDefaultPlugins } from './app/index.js';
import { loadBuiltinPlugins } from './builtin-studies.js';

// Running an evaluation: a specification (what) and operations (how).
export {
  evaluate,
  loadTasks,
  runIdentity,
  runIdOf,
  type EvaluateResult,
  type RunOperations,
} from './app/index.js';
export {
  parseRunSpec,
  RunSpecSchema,
  type IrtRunSpec,
  type ModelEntry,
  type RunSpec,
  type RunSpecInput,
  type SuiteEntry,
} from './core/index.js';
export type { RunEvent, RunSummary } from './runner/index.js';

// Extending mindscope without forking: config files, plugins, and what they register.
export {
  applyScorer,
  createModel,
  createRegistry,
  defineConfig,
  definePlugin,
  defineScorer,
  loadConfig,
  loadSuite,
  Registry,
  type ConfigInput,
  type LoadedConfig,
  type Plugin,
  type ReportContext,
  type ReportSection,
  type ViewerPanel,
  type ApplyScorerResult,
  type ScorableTrial,
  type ScorerDefinition,
} from './app/index.js';
export { defineProtocol, type ProtocolModule, type ProtocolSettings, type ReferencePolicy } from './protocols/index.js';
export { defineSuite, type Suite, type SuiteDefinition, type SuiteLoadOptions } from './suites/index.js';
export {
  defineProvider,
  ModelCallError,
  type ChatModel,
  type ChatRequest,
  type ModelOptions,
  type ProviderContext,
  type ProviderDefinition,
} from './models/index.js';
export {
  callInfoKey,
  readInfo,
  readRecord,
  readScoreDetail,
  withInfo,
  type CallContext,
  type CallInfoKey,
  type ChatMessage,
  type ChatResponse,
  type ContentPart,
  type GenerationSettings,
  type Item,
  type ProtocolResult,
  type RecordSchemas,
  type Score,
  type StoredTranscript,
  type Task,
  type TrialContext,
  type TrialKey,
  type TrialModel,
} from './core/index.js';

// The store and what is read back out of it.
export {
  openStore,
  copyStore,
  mergeStores,
  PgStore,
  SqliteStore,
  type ImportSummary,
  readMatrixCsv,
  readMatrixParquet,
  writeMatrixCsv,
  writeMatrixParquet,
  type ResponseMatrix,
  type Store,
} from './store/index.js';
export {
  exportMatrix,
  resolveRunId,
  runAccuracy,
  runMatricesBySuite,
  runMatrix,
  writeRunReport,
  type RunReportOptions,
} from './app/index.js';
export { reportFlags } from './app/report-sections.js';
export { runPanel, type RunPanel, type IrtSuiteResult } from './app/index.js';
export { compareTriangleScorers, judgeCallCost, loadHumanReferences, visionReportSection } from './studies/vision/index.js';
// Exports for other tools: every trial as a row (JSONL, Parquet).
export { exportTrials, runTrialRows, TRIAL_COLUMNS, type TrialRow } from './app/index.js';
// Inspect AI eval logs, out and in.
export { exportInspectLogs, importInspectLogs, InspectEvalLogSchema, type InspectEvalLog } from './app/index.js';

// Many processes and machines on one PostgreSQL store: a queue of trials and its workers.
export {
  enqueueRun,
  runSchedule,
  runWorker,
  timeOfDayAnalysis,
  type EnqueueOptions,
  type EnqueueResult,
  type WorkerEvent,
  type WorkerOptions,
  type WorkerSummary,
} from './app/index.js';

// Scoring stored runs again, judges, and model-written items.
export {
  importHumanAnswers,
  type HumanImportResult,
  scoreRun,
  validateJudgeModels,
  type ScoreRunOptions,
  type ScoreRunResult,
} from './app/index.js';
export { writeStoryTurns } from './studies/storyturn/index.js';
export { authorEmbodiedTasks, type AuthoringResult } from './studies/enacttom/index.js';
// DialToM's model writer, written inferences and trace judging (also on mindscope/studies/dialtom).
export {
  bertScoreInferences,
  elicitInferences,
  judgeInferences,
  judgeTracePairs,
  modelDialtomWriter,
  type BertScoreSummary,
  type InferenceJudgement,
  type TracePairDimension,
  type TracePairResult,
  type WrittenInference,
  type WrittenUnit,
} from './studies/dialtom/index.js';

// The seed studies (literal benchmarks, DialToM, EnactToM, StoryTurn, vision) are plugins on this
// same API (src/studies); importing this entry point makes them the default plugins of every
// registry. Each study's own API is its entry point `mindscope/studies/<study>`.
export { BUILTIN_STUDIES, loadBuiltinPlugins, pluginManifests, type BuiltinStudy } from './builtin-studies.js';
export { defaultPlugins, setDefaultPlugins, type PluginManifest } from './app/index.js';
setDefaultPlugins(await loadBuiltinPlugins());

// Errors every command reports as one line naming the file, line, flag or model.
export { ConfigError, InputError, MindscopeError } from './core/index.js';
