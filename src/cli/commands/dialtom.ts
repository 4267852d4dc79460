import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, modelDialtomWriter, openStore } from '../../index.js';
import { readJson } from '../../core/index.js';
import { buildDialtomItems, fileWriter, readDialogues, type BuiltItems } from '../../suites/index.js';
import { intOption, DEFAULT_DB } from '../options.js';

/** The released layout: DIR/dialtom/data/DOMAIN_TASK_verified.json and DIR/dialtom/counterfactual_data/DOMAIN_counterfact.json. */
function writeLayout(
  root: string,
  built: Pick<BuiltItems, 'retrospective' | 'prospective' | 'prospectiveEasy'> & { counterfactual?: BuiltItems['counterfactual'] },
): void {
  const data = join(root, 'dialtom', 'data');
  mkdirSync(data, { recursive: true });
  const domains = [...new Set(built.retrospective.map((r) => String(r.domain)))];
  for (const domain of domains) {
    const of = (rows: Array<Record<string, unknown>>) => rows.filter((r) => r.domain === domain);
    writeFileSync(join(data, `${domain}_retrospective_verified.json`), JSON.stringify(of(built.retrospective), null, 1));
    writeFileSync(join(data, `${domain}_prospective_verified.json`), JSON.stringify(of(built.prospective), null, 1));
    writeFileSync(join(data, `${domain}_prospective-easy_verified.json`), JSON.stringify(of(built.prospectiveEasy), null, 1));
    if (built.counterfactual) {
      const cf = join(root, 'dialtom', 'counterfactual_data');
      mkdirSync(cf, { recursive: true });
      const ids = new Set(of(built.retrospective).map((r) => String(r.id)));
      // Keys are "<window id>_<state>".
      writeFileSync(
        join(cf, `${domain}_counterfact.json`),
        JSON.stringify(
          Object.fromEntries(Object.entries(built.counterfactual).filter(([k]) => ids.has(k.slice(0, k.lastIndexOf('_'))))),
          null,
          1,
        ),
      );
    }
  }
}

export function registerDialtom(program: Command): void {
  program
    .command('dialtom')
    .description('DialToM item building')
    .command('build')
    .description(
      'items from dialogues: 150-200-word windows, six retrospective questions and one prospective question each, the easy set, counterfactual profiles and context-degradation variants',
    )
    .requiredOption(
      '--dialogues <file>',
      'JSON list of { id, domain, topic?, task_desc?, turns: ["speaker: text"] or [{ speaker, text }] }',
    )
    .requiredOption('--out <dir>', 'output folder (the released layout: run the dialtom suites with --data DIR)')
    .option(
      '--options <file>',
      'written options per window: { "<dialogue id>, <window>": { true, wrong, distractor_trajectories, summary } }',
    )
    .option('--model <spec>', 'write the options with a model instead')
    .option('--seed <s>', 'seed (option order, focus state, easy-set distractors)', intOption('--seed', 0), 0)
    .option('--db <path>', 'store, a SQLite file or postgres:// URL (call cache, with --model)', DEFAULT_DB)
    .option('--api-key-env <name>', 'environment variable with the key for an openai-compatible model')
    .action(
      async (f: { dialogues: string; out: string; options?: string; model?: string; seed: number; db: string; apiKeyEnv?: string }) => {
        if (!!f.options === !!f.model) throw new ConfigError('give exactly one of --options FILE and --model SPEC');
        const dialogues = readDialogues(readJson(f.dialogues), f.dialogues);
        let built: BuiltItems;
        if (f.options) built = await buildDialtomItems(dialogues, fileWriter(readJson(f.options), f.options), { seed: f.seed });
        else {
          const store = await openStore(f.db);
          const w = modelDialtomWriter({ store, model: f.model!, apiKeyEnv: f.apiKeyEnv });
          try {
            built = await buildDialtomItems(dialogues, w.writer, { seed: f.seed });
          } finally {
            await w.close();
            await store.close();
          }
        }
        writeLayout(f.out, built);
        for (const [mode, rows] of Object.entries(built.degraded))
          writeLayout(join(f.out, 'degraded', mode), {
            retrospective: built.retrospective,
            prospective: rows,
            prospectiveEasy: built.prospectiveEasy,
          });
        process.stdout.write(
          `built from ${dialogues.length} dialogue(s): ${built.retrospective.length / 6} windows, ${built.retrospective.length} retrospective questions, ${built.prospective.length} prospective, ${built.prospectiveEasy.length} easy, ${Object.keys(built.counterfactual).length} counterfactual profiles; degradation variants in ${join(f.out, 'degraded')}/{states,summary+states,history+states}\n`,
        );
      },
    );
}
