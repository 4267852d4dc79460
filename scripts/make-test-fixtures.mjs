// Cuts the small test fixtures from the full public data, so that `npm test` needs nothing
// beside the repository:
//   node scripts/make-test-fixtures.mjs ../shared
// SHARED_DIR holds data/ (the datasets as data/manifest.json lists them), vectors/ and models/.
// Writes tests/fixtures/data/<dataset>/ (valid subsets in the layout the loaders read, each with
// the dataset's LICENSE), tests/fixtures/data/README.md (source, licence and what was cut),
// tests/fixtures/vectors/ and tests/fixtures/models/. Every source file is checked against the
// manifest's SHA-256 first, so the fixtures always come from the pinned revisions. The output is
// the same bytes on every run.

import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'tests', 'fixtures');
const MODEL = { file: 'stories260k-f32.gguf', sha256: '3c4a7c3a8313e00ae6a6b64df717828f4ba18391ea31ffb01abe9a2c4f7bb9a9' };

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');
const fail = (msg) => {
  console.error(`make-test-fixtures: ${msg}`);
  process.exit(1);
};

const sharedArg = process.argv[2];
if (!sharedArg) fail('usage: node scripts/make-test-fixtures.mjs SHARED_DIR (the folder holding data/, vectors/ and models/)');
const SHARED = resolve(sharedArg);
const DATA = join(SHARED, 'data');
if (!existsSync(DATA)) fail(`${DATA}: no such directory`);

const manifest = JSON.parse(readFileSync(join(ROOT, 'data', 'manifest.json'), 'utf8'));
const datasetOf = (id) => manifest.datasets.find((d) => d.id === id) ?? fail(`data/manifest.json has no dataset "${id}"`);

/** A source file's bytes, refused unless they match the manifest. */
function source(dataset, path) {
  const entry = datasetOf(dataset).files.find((f) => f.path === path);
  if (!entry) fail(`data/manifest.json lists no file ${dataset}/${path}`);
  const file = join(DATA, dataset, path);
  const buf = readFileSync(file);
  if (sha256(buf) !== entry.sha256)
    fail(`${file}: SHA-256 differs from data/manifest.json (expected revision ${datasetOf(dataset).source.revision})`);
  return buf;
}
const text = (dataset, path) => source(dataset, path).toString('utf8');
const json = (dataset, path) => JSON.parse(text(dataset, path));

function write(dataset, path, content) {
  const file = join(OUT, 'data', dataset, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content);
}
// The releases indent JSON by four spaces; the subsets keep that layout.
const writeJson = (dataset, path, value) => write(dataset, path, `${JSON.stringify(value, null, 4)}\n`);
const lines = (s) => s.split('\n').filter((l) => l.trim() !== '');
/** Lines [from, to] (1-based, inclusive) of a text. */
const lineRange = (all, from, to) => all.slice(from - 1, to);

/** What each folder holds, for the README: [file or group, what was kept]. */
const cuts = {};
const note = (dataset, what) => {
  cuts[dataset] ??= [];
  cuts[dataset].push(what);
};

rmSync(join(OUT, 'data'), { recursive: true, force: true });

// ToMBench: line ranges chosen to cover every category, both spellings of the non-literal
// prefix, the trailing-space ability, two-option items, repeated INDEX values (ids made unique
// by line) and the malformed answer "A. " (Knowledge-Attention Links line 11).
const TOMBENCH = {
  'Ambiguous Story Task.jsonl': [[1, 4]],
  'Discrepant Desires.jsonl': [[1, 4]],
  'False Belief Task.jsonl': [[1, 6]],
  'Faux-pas Recognition Test.jsonl': [[1, 4]],
  'Hidden Emotions.jsonl': [[1, 4]],
  'Knowledge-Attention Links.jsonl': [[1, 12]],
  'Scalar Implicature Test.jsonl': [[1, 4]],
  'Strange Story Task.jsonl': [
    [1, 4],
    [157, 158],
  ],
};
for (const [file, ranges] of Object.entries(TOMBENCH)) {
  const all = lines(text('tombench', file));
  write('tombench', file, `${ranges.flatMap(([a, b]) => lineRange(all, a, b)).join('\n')}\n`);
  note('tombench', `\`${file}\`: lines ${ranges.map(([a, b]) => `${a}-${b}`).join(', ')} of ${all.length}`);
}

// ToMATO: the first two items of each mental state, in file order.
{
  const all = json('tomato', 'tomato_fb.json');
  const seen = {};
  const kept = all.filter((r) => (seen[r.mental_state] = (seen[r.mental_state] ?? 0) + 1) <= 2);
  writeJson('tomato', 'tomato_fb.json', kept);
  note('tomato', `\`tomato_fb.json\`: the first two items of each \`mental_state\` (${kept.length} of ${all.length})`);
}

// DialToM: the first four items of every task file; the prospective and easy files list the
// same (id, state) pairs in the same order, and the counterfactual profiles are cut to those.
{
  const N = 4;
  for (const domain of ['MI', 'ESC', 'PFG']) {
    const keys = {};
    for (const task of ['retrospective', 'prospective', 'prospective-easy']) {
      const path = `data/${domain}_${task}_verified.json`;
      const all = json('dialtom', path);
      const kept = all.slice(0, N);
      keys[task] = kept.map((r) => `${r.id}_${r.state}`);
      writeJson('dialtom', path, kept);
    }
    if (keys.prospective.join('|') !== keys['prospective-easy'].join('|'))
      fail(`DialToM ${domain}: prospective and easy files do not pair`);
    const cfPath = `counterfactual_data/${domain}_counterfact.json`;
    const cf = json('dialtom', cfPath);
    const kept = Object.fromEntries(keys.prospective.map((k) => [k, cf[k] ?? fail(`DialToM ${cfPath}: no profile "${k}"`)]));
    writeJson('dialtom', cfPath, kept);
  }
  note('dialtom', `\`data/{MI,ESC,PFG}_{retrospective,prospective,prospective-easy}_verified.json\`: the first ${N} items of each`);
  note('dialtom', '`counterfactual_data/*_counterfact.json`: the profiles of the prospective items kept');
  // Written inferences: the first two units per domain and the human references for them.
  const combined = json('dialtom', 'data/combined_written_data.json');
  const units = Object.fromEntries(
    Object.entries(combined).map(([domain, u]) => [domain, Object.fromEntries(Object.entries(u).slice(0, 2))]),
  );
  writeJson('dialtom', 'data/combined_written_data.json', units);
  const csv = lines(text('dialtom', 'data/written_inference.csv'));
  const wanted = new Set(Object.entries(units).flatMap(([domain, u]) => Object.keys(u).map((id) => `${domain},"${id}"`)));
  // Rows read WorkerId,dataset,mental_state,sub_id,...: one record a line, sub_id quoted ("5, 9").
  const rows = csv.slice(1).filter((row) => {
    const m = /^[^,]*,([^,]*),[^,]*,("[^"]*")/.exec(row);
    return m && wanted.has(`${m[1]},${m[2]}`);
  });
  write('dialtom', 'data/written_inference.csv', `${[csv[0], ...rows].join('\n')}\n`);
  note('dialtom', '`data/combined_written_data.json`: the first two units of each domain');
  note('dialtom', `\`data/written_inference.csv\`: the ${rows.length} rows (of ${csv.length - 1}) for those units`);
}

// Hi-ToM: the first record of each prompting style x question order x deception, in file order.
{
  const all = json('hitom', 'Hi-ToM_data.json');
  const seen = new Set();
  const kept = all.data.filter((r) => {
    const key = `${r.prompting_type}/${r.question_order}/${r.deception}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  writeJson('hitom', 'Hi-ToM_data.json', { data: kept });
  note(
    'hitom',
    `\`Hi-ToM_data.json\`: the first record of each prompting type x question order x deception (${kept.length} of ${all.data.length})`,
  );
}

// ToMi: the first questions of each split with their story lines, and the matching trace lines.
{
  const counts = { test: 60, train: 12, val: 12 };
  for (const [split, n] of Object.entries(counts)) {
    const all = text('tomi', `fb_all_${split}.txt`).split('\n');
    const kept = [];
    let questions = 0;
    for (const line of all) {
      if (questions === n) break;
      if (!line.trim()) continue;
      kept.push(line);
      if (line.includes('\t')) questions++;
    }
    write('tomi', `fb_all_${split}.txt`, `${kept.join('\n')}\n`);
    write(
      'tomi',
      `fb_all_${split}.trace`,
      `${lines(text('tomi', `fb_all_${split}.trace`))
        .slice(0, n)
        .join('\n')}\n`,
    );
  }
  write('tomi', 'world.json', source('tomi', 'world.json'));
  note('tomi', '`fb_all_{test,train,val}.txt` and `.trace`: the first 60 (test), 12 (train) and 12 (val) questions with their stories');
  note('tomi', '`world.json`: whole');
}

// BigToM: the first four stories; the expert data whole.
{
  const all = lines(text('bigtom', 'bigtom.csv'));
  write('bigtom', 'bigtom.csv', `${all.slice(0, 4).join('\n')}\n`);
  for (const f of datasetOf('bigtom').files.filter((f) => f.path.startsWith('expert_data/')))
    write('bigtom', f.path, source('bigtom', f.path));
  note('bigtom', `\`bigtom.csv\`: the first 4 stories (of ${all.length}); \`expert_data/*.csv\` whole`);
}

// OpenToM: the three lowest story ids and story 71136438 (its fine-grained location answer is
// not one of the story's two places: the loader leaves it out with a warning), in every
// question file and in the meta data.
{
  const meta = json('opentom', 'meta_data.json');
  const stories = [...Object.keys(meta).slice(0, 3), '71136438'];
  const pick = (obj) => Object.fromEntries(stories.filter((s) => s in obj).map((s) => [s, obj[s]]));
  for (const f of datasetOf('opentom').files) {
    if (f.path === 'LICENSE') continue;
    const kept = pick(json('opentom', f.path));
    if (f.path !== 'meta_data_long.json' && Object.keys(kept).length !== stories.length) fail(`OpenToM ${f.path}: a story is missing`);
    writeJson('opentom', f.path, kept);
  }
  note(
    'opentom',
    `every \`*.json\`: stories ${stories.join(', ')} (the three lowest ids and one whose answer the loader leaves out; those in \`meta_data_long.json\` there)`,
  );
}

// MMToM-QA: the first two questions of each question type, in file order.
{
  const all = lines(text('mmtom-qa', 'questions.json'));
  const seen = {};
  const kept = all.filter((l) => {
    const t = String(JSON.parse(l).question_type);
    return (seen[t] = (seen[t] ?? 0) + 1) <= 2;
  });
  write('mmtom-qa', 'questions.json', `${kept.join('\n')}\n`);
  note('mmtom-qa', `\`questions.json\`: the first two questions of each question type (${kept.length} of ${all.length})`);
}

// EnactToM: the whole folder (one task and the template).
for (const f of datasetOf('enacttom').files) write('enacttom', f.path, source('enacttom', f.path));
note('enacttom', 'whole');

// Every folder keeps its dataset's licence.
for (const id of Object.keys(cuts)) {
  const licence = join(DATA, id, 'LICENSE');
  if (!existsSync(licence)) fail(`${licence}: missing`);
  write(id, 'LICENSE', readFileSync(licence));
}

const readme = [
  '# Test fixtures: small subsets of the public ToM datasets',
  '',
  'Written by `node scripts/make-test-fixtures.mjs SHARED_DIR` from the full files (each checked against',
  '`data/manifest.json` first, so these come from the pinned revisions below). Do not edit by hand: change',
  "the script and run it again. Each folder keeps the layout the loaders read and the dataset's `LICENSE`;",
  'the licences still apply to these subsets (ToMi and OpenToM: CC BY-NC 4.0, non-commercial; ToMATO:',
  'Meta Llama 3 Community Licence, "Built with Meta Llama 3"). The only change is that items were left out:',
  'the items kept are unchanged (JSON-lines and CSV lines copied byte for byte; JSON files parsed and written',
  'again with four-space indentation, as released).',
  'The checks on the full files (published counts, DialToM Table 19) are in `tests-shared/` (`npm run test:shared`).',
  '',
  '| folder | source (repo @ revision) | licence | what was kept |',
  '| --- | --- | --- | --- |',
  ...Object.entries(cuts).map(([id, what]) => {
    const d = datasetOf(id);
    return `| \`${id}/\` | ${d.source.repo} @${d.source.revision} | ${d.licence} | ${what.join('; ')} |`;
  }),
  '',
];
writeFileSync(join(OUT, 'data', 'README.md'), readme.join('\n'));

// Reference vectors: copied whole, with a note on their origin before their own README. The
// generated/ folder beside them (vectors made by the repository's own scripts) is kept.
{
  const from = join(SHARED, 'vectors');
  const own = join(OUT, 'vectors');
  mkdirSync(own, { recursive: true });
  for (const name of readdirSync(own)) if (name !== 'generated') rmSync(join(own, name), { recursive: true, force: true });
  cpSync(from, own, { recursive: true });
  const readme = readFileSync(join(from, 'README.md'), 'utf8');
  writeFileSync(
    join(own, 'README.md'),
    `<!-- Copied unchanged from the project's shared reference vectors (shared/vectors) by scripts/make-test-fixtures.mjs; their README follows. -->\n\n${readme}`,
  );
}

// The 260K-parameter GGUF model for the local-inference tests.
{
  const buf = readFileSync(join(SHARED, 'models', MODEL.file));
  if (sha256(buf) !== MODEL.sha256) fail(`${MODEL.file}: SHA-256 is not ${MODEL.sha256}`);
  mkdirSync(join(OUT, 'models'), { recursive: true });
  writeFileSync(join(OUT, 'models', MODEL.file), buf);
  writeFileSync(join(OUT, 'models', 'README.md'), readFileSync(join(SHARED, 'models', 'README.md')));
}

const size = (dir) =>
  readdirSync(dir).reduce((n, name) => {
    const p = join(dir, name);
    return n + (statSync(p).isDirectory() ? size(p) : statSync(p).size);
  }, 0);
console.log(
  `tests/fixtures/data: ${size(join(OUT, 'data'))} bytes; vectors: ${size(join(OUT, 'vectors'))}; models: ${size(join(OUT, 'models'))}`,
);
