import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { ConfigError } from '../../../index.js';
import { describeFileError } from '../../../core/index.js';
import { createImageModel } from '../../../models/index.js';
import {
  attachIllustrations,
  drawIllustrations,
  planIllustrations,
  readStoryTurns,
  saveStoryTurns,
  storyFileFormat,
  type IllustrateResult,
} from '../index.js';
import { printResult } from '../../../cli/toolkit.js';

interface IllustrateFlags {
  model?: string;
  promptsOnly?: string;
  attach?: boolean;
  id?: string[];
  redraw?: string[];
  eachTurn?: boolean;
  size?: string;
  imagesDir?: string;
  apiKeyEnv?: string;
  json?: boolean;
}

/** The result in words: what was drawn or attached, what failed, what awaits review. */
function summary(verb: string, r: IllustrateResult): string {
  return [
    `${verb} ${r.done.length} of ${r.requests.length} image(s); ${r.failed.length} failed; ${r.changed.length} StoryTurn(s) changed and await review`,
    ...r.done.map((d) => `  ${d.story} ${d.image}: ${d.file}`),
    ...r.failed.map((x) => `  ${x.story} ${x.image}: ${x.error}`),
  ].join('\n');
}

/** `storyturn illustrate`: CoMMET's illustration prompts, drawn by an image model or written out for another tool. */
export function registerIllustrate(cmd: Command): void {
  cmd
    .command('illustrate')
    .description(
      "draw the images a StoryTurn file names and does not hold, from CoMMET's image-generation prompt: with an image model (--model), or as prompts for another tool (--prompts-only) whose images --attach then references; images are stored beside the file",
    )
    .argument('<file>', 'StoryTurn file (JSON or JSONL), rewritten with the images referenced by relative path')
    .option('--model <spec>', 'image model: openai:MODEL (OPENAI_API_KEY) or openai-compatible:BASE_URL#MODEL')
    .option('--prompts-only <out>', 'write the prompts as JSON Lines { story_id, image_id, turn, prompt, file } instead of drawing')
    .option('--attach', "reference the images another tool wrote at the prompts' paths (file, or .jpg/.gif/.webp beside it)")
    .option('--id <id...>', 'only these stories')
    .option('--redraw <image...>', 'draw these image ids again (images the reviewers found wrong)')
    .option('--each-turn', 'first give every turn that names no image one (STORY_tN)')
    .option('--size <WxH>', 'image size as the API takes it, e.g. 1024x1024')
    .option('--images-dir <dir>', "folder for the images, inside the file's folder", 'images')
    .option('--api-key-env <name>', 'environment variable with the key for an openai-compatible server')
    .option('--json', 'print JSON: { requests, done: [{ story, image, file }], failed: [{ story, image, error }], changed }')
    .action(async (file: string, f: IllustrateFlags) => {
      if ([f.model, f.promptsOnly, f.attach].filter(Boolean).length !== 1)
        throw new ConfigError('give exactly one of --model SPEC, --prompts-only FILE and --attach');
      storyFileFormat(file);
      const opts = {
        file,
        stories: await readStoryTurns(file),
        ids: f.id,
        redraw: f.redraw,
        eachTurn: f.eachTurn,
        imagesDir: f.imagesDir,
      };
      const show = (verb: string, r: IllustrateResult) =>
        printResult(f.json, { requests: r.requests.length, done: r.done, failed: r.failed, changed: r.changed }, summary(verb, r));
      if (f.promptsOnly) {
        const plan = planIllustrations(opts);
        const lines = plan.requests.map((r) =>
          JSON.stringify({ story_id: r.story, image_id: r.image, turn: r.turn, prompt: r.prompt, file: r.file }),
        );
        try {
          writeFileSync(f.promptsOnly, lines.map((l) => `${l}\n`).join(''));
        } catch (err) {
          throw describeFileError(err, f.promptsOnly);
        }
        // New turn image ids (--each-turn) are kept, so that --attach finds the same images.
        if (plan.changed.length) saveStoryTurns(file, plan.stories);
        printResult(
          f.json,
          { requests: plan.requests.length, prompts: f.promptsOnly, changed: plan.changed },
          `wrote ${plan.requests.length} illustration prompt(s) to ${f.promptsOnly}; write each image at its "file" (beside ${file}), then run storyturn illustrate ${file} --attach`,
        );
        return;
      }
      if (f.attach) {
        const r = attachIllustrations(opts);
        saveStoryTurns(file, r.stories);
        show('attached', r);
        if (r.failed.length) process.exitCode = 1;
        return;
      }
      const model = createImageModel(f.model!, { apiKeyEnv: f.apiKeyEnv });
      const r = await drawIllustrations({ ...opts, model, size: f.size, save: (stories) => saveStoryTurns(file, stories) });
      saveStoryTurns(file, r.stories);
      show(`drew with ${model.spec}`, r);
      if (r.failed.length) process.exitCode = 1;
    });
}
