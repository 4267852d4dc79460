// Illustrating StoryTurns (`mindscope storyturn illustrate`): the images a story names and does
// not hold are drawn by an image model from the paper's prompt (storyturn-illustration.ts), or
// left to an external tool that writes them where the prompts say and then attached. Each image
// is a file beside the story file (images/STORY/IMAGE.png by default), which the story names by
// its relative path. A story whose images change is a new version: it awaits review again.

import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ConfigError, makeDirectory } from '../../../core/index.js';
import { ModelCallError, type ImageModel } from '../../../models/index.js';
import type { StoryTurnStory } from '../protocol/storyturn.js';
import { checkedImage } from './storyturn-images.js';
import { illustrationRequests, withTurnImages, type IllustrationRequest } from './storyturn-illustration.js';
import { reviewStatus } from './storyturn-reviews.js';

export interface IllustrateOptions {
  /** The story file: images are written in its folder, and the stories were read from it. */
  file: string;
  stories: StoryTurnStory[];
  /** Only these stories (default: all). */
  ids?: string[];
  /** Draw these image ids again although the stories hold them. */
  redraw?: string[];
  /** Give each turn that names no image one (STORY_tN) first. */
  eachTurn?: boolean;
  /** The images' folder, inside the story file's folder (default: images). */
  imagesDir?: string;
}

export interface IllustrateResult {
  stories: StoryTurnStory[];
  /** The prompts, one per image to draw. */
  requests: IllustrationRequest[];
  /** Images written (drawn) or found (attached), by their path relative to the story file's folder. */
  done: Array<{ story: string; image: string; file: string }>;
  failed: Array<{ story: string; image: string; error: string }>;
  /** Stories that changed (new image ids or images): they await review. */
  changed: string[];
}

const EXTENSIONS: Record<string, string> = { 'image/png': '.png', 'image/jpeg': '.jpg', 'image/gif': '.gif', 'image/webp': '.webp' };

/** The images folder relative to the story file's folder; one outside it is refused (the loader would not read it). */
function imagesFolder(file: string, dir = 'images'): string {
  const base = resolve(dirname(file));
  const rel = relative(base, resolve(isAbsolute(dir) ? dir : join(base, dir)));
  if (rel.startsWith('..') || isAbsolute(rel))
    throw new ConfigError(`--images-dir ${dir}: the images must lie in the folder of ${file} (the loader reads images only inside it)`);
  return rel || '.';
}

/** The stories to illustrate (with turn image ids given when asked) and the prompts of their images to draw. */
export function planIllustrations(opts: IllustrateOptions): IllustrateResult {
  const imagesDir = imagesFolder(opts.file, opts.imagesDir);
  const known = new Set(opts.stories.map((s) => s.id));
  const unknown = (opts.ids ?? []).filter((id) => !known.has(id));
  if (unknown.length) throw new ConfigError(`${opts.file}: no StoryTurn ${unknown.map((x) => `"${x}"`).join(', ')}`);
  const chosen = (s: StoryTurnStory) => !opts.ids?.length || opts.ids.includes(s.id);
  const changed: string[] = [];
  const stories = opts.stories.map((s) => {
    if (!chosen(s) || !opts.eachTurn) return s;
    const t = withTurnImages(s);
    if (t !== s) changed.push(s.id);
    return t === s ? s : awaitingReview(t);
  });
  const requests = stories.filter(chosen).flatMap((s) => illustrationRequests(s, { imagesDir, redraw: opts.redraw }));
  const named = new Set(stories.filter(chosen).flatMap((s) => s.turns.flatMap((t) => t.image.split(';').map((x) => x.trim()))));
  const missing = (opts.redraw ?? []).filter((x) => !named.has(x));
  if (missing.length) throw new ConfigError(`--redraw: no chosen StoryTurn names the image(s) ${missing.join(', ')}`);
  return { stories, requests, done: [], failed: [], changed };
}

/** A changed story's status: awaiting review (its verdicts were given on an earlier version). */
function awaitingReview(s: StoryTurnStory): StoryTurnStory {
  return { ...s, status: s.reviews?.length ? reviewStatus(s) : 'generated' };
}

/** The story with one image set: its bytes, and its file relative to the story file's folder. */
function withImage(s: StoryTurnStory, file: string, image: string, dataUri: string, path: string): StoryTurnStory {
  return awaitingReview({
    ...s,
    source: file,
    images: { ...s.images, [image]: dataUri },
    imageFiles: { ...s.imageFiles, [image]: path },
  });
}

/** Apply one image to the result's stories. */
function record(result: IllustrateResult, file: string, r: IllustrationRequest, dataUri: string, path: string): void {
  result.stories = result.stories.map((s) => (s.id === r.story ? withImage(s, file, r.image, dataUri, path) : s));
  result.done.push({ story: r.story, image: r.image, file: path });
  if (!result.changed.includes(r.story)) result.changed.push(r.story);
}

/**
 * Draw each planned image with the model and write it beside the story file; `save` is called
 * with the stories after each story's images, so an image paid for is never lost. A failed
 * image is reported and the others go on; a key or model the service refuses stops them all.
 */
export async function drawIllustrations(
  opts: IllustrateOptions & { model: ImageModel; size?: string; save?: (stories: StoryTurnStory[]) => void },
): Promise<IllustrateResult> {
  const result = planIllustrations(opts);
  const folder = dirname(opts.file);
  for (const [k, r] of result.requests.entries()) {
    try {
      const image = await opts.model.generate(r.prompt, { size: opts.size });
      const stem = r.file.replace(/\.png$/, '');
      const path = `${stem}${EXTENSIONS[image.mediaType]}`;
      makeDirectory(dirname(join(folder, path)));
      // An earlier drawing of another kind is replaced, not left beside the new one.
      for (const ext of Object.values(EXTENSIONS)) if (`${stem}${ext}` !== path) rmSync(join(folder, `${stem}${ext}`), { force: true });
      writeFileSync(join(folder, path), image.bytes);
      record(result, opts.file, r, `data:${image.mediaType};base64,${Buffer.from(image.bytes).toString('base64')}`, path);
    } catch (err) {
      if (err instanceof ModelCallError && err.fatal) throw err;
      result.failed.push({ story: r.story, image: r.image, error: (err as Error).message });
    }
    if (result.requests[k + 1]?.story !== r.story) opts.save?.(result.stories);
  }
  return result;
}

/** Attach the images an external tool wrote where the prompts say (any of PNG, JPEG, GIF, WebP); those not there are reported. */
export function attachIllustrations(opts: IllustrateOptions): IllustrateResult {
  const result = planIllustrations(opts);
  const folder = dirname(opts.file);
  for (const r of result.requests) {
    const stem = r.file.replace(/\.png$/, '');
    const path = Object.values(EXTENSIONS)
      .map((ext) => `${stem}${ext}`)
      .find((p) => existsSync(join(folder, p)));
    if (!path) {
      result.failed.push({ story: r.story, image: r.image, error: `no image at ${r.file} (or .jpg, .gif, .webp)` });
      continue;
    }
    try {
      record(result, opts.file, r, checkedImage(path, folder, `image "${r.image}"`, opts.file), path);
    } catch (err) {
      result.failed.push({ story: r.story, image: r.image, error: (err as Error).message });
    }
  }
  return result;
}
