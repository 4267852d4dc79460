// Expert review as CoMMET did it: three reviewers' verdicts per story, each on the story's
// version when given; the status derived from the verdicts on the current version (any
// rejection: rejected; three approvals: approved; else awaiting review); the reviewers'
// agreement (Fleiss' kappa, Gwet's AC1) over story versions judged by two or more, checked
// against a computation by hand; files that record one status per story still load.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addReview,
  generateStoryTurns,
  loadStoryTurnSuite,
  readStoryTurns,
  reviewAgreement,
  reviewStatus,
  saveStoryTurns,
  storyContentHash,
  storyTurnDatasetStats,
  storyTurnItem,
  type StoryTurnStory,
} from '../src/studies/storyturn/index.js';
import { runCli } from './helpers/run-cli.js';

const fresh = (n: number): StoryTurnStory[] =>
  generateStoryTurns({ count: n, seed: 3 }).map((s) => ({ ...s, status: 'generated' as const, turns: s.turns.map((t) => ({ ...t })) }));
const ok = (reviewer: string) => ({ reviewer, approve: true as const });
const no = (reviewer: string, ...errors: string[]) => ({ reviewer, reject: errors });

describe('the status follows the verdicts on the current version', () => {
  it('three approvals approve; a rejection rejects; a correction makes earlier verdicts stale; a reviewer may change their mind', () => {
    let [s] = fresh(1);
    const id = s!.id;
    let stories = [s!];
    const status = () => stories[0]!.status;
    stories = addReview(stories, id, ok('ana'));
    stories = addReview(stories, id, ok('ben'));
    expect(status()).toBe('generated');
    stories = addReview(stories, id, no('cy', 'answer-revealed'));
    expect(status()).toBe('rejected');
    // The same version: cy changes their mind.
    stories = addReview(stories, id, ok('cy'));
    expect(status()).toBe('approved');
    // A fourth reviewer's rejection counts as much as any.
    stories = addReview(stories, id, no('dee', 'wrong-answer', 'format'));
    expect(status()).toBe('rejected');
    // The text is corrected: a new version, no verdict on it yet.
    s = { ...stories[0]!, turns: stories[0]!.turns.map((t, i) => (i === 0 ? { ...t, story: `${t.story} (corrected)` } : t)) };
    expect(storyContentHash(s)).not.toBe(storyContentHash(stories[0]!));
    expect(reviewStatus(s)).toBe('generated');
    stories = [s];
    for (const r of ['ana', 'ben', 'cy']) stories = addReview(stories, id, ok(r));
    expect(status()).toBe('approved');
    expect(stories[0]!.reviews!.map((r) => [r.reviewer, r.verdict, r.content === storyContentHash(s!)])).toEqual([
      ['ana', 'approve', false],
      ['ben', 'approve', false],
      ['cy', 'reject', false],
      ['cy', 'approve', false],
      ['dee', 'reject', false],
      ['ana', 'approve', true],
      ['ben', 'approve', true],
      ['cy', 'approve', true],
    ]);
    // A verdict does not change the item a run is given.
    const before = storyTurnItem('storyturn', { ...stories[0]!, reviews: stories[0]!.reviews!.slice(0, 5) });
    expect(storyTurnItem('storyturn', stories[0]!)).toEqual(before);
    expect(() => addReview(stories, id, no('ana', 'boring'))).toThrow(/unknown error type "boring"/);
    expect(() => addReview(stories, id, { reviewer: ' ', approve: true })).toThrow(/a verdict needs the reviewer/);
    expect(() => addReview(stories, 'nope', ok('ana'))).toThrow(/no StoryTurn "nope"/);
  });
});

describe("the reviewers' agreement", () => {
  it("Fleiss' kappa and Gwet's AC1 over story versions judged twice or more, as computed by hand; printed by reviews and stats", async () => {
    let stories = fresh(5);
    const ids = stories.map((s) => s.id);
    const verdicts: Array<[number, string, boolean]> = [
      [0, 'ana', true],
      [0, 'ben', true],
      [0, 'cy', true],
      [1, 'ana', true],
      [1, 'ben', false],
      [1, 'cy', true],
      [2, 'ana', false],
      [2, 'ben', false],
      [2, 'cy', false],
      [3, 'ana', true],
      [3, 'ben', true],
      [4, 'ana', true],
    ];
    for (const [i, r, yes] of verdicts) stories = addReview(stories, ids[i]!, yes ? ok(r) : no(r, 'image-issue'));
    // Story 2 corrected, then approved by all three: a second version of it.
    stories[1] = { ...stories[1]!, task: 'corrected task' };
    for (const r of ['ana', 'ben', 'cy']) stories = addReview(stories, ids[1]!, ok(r));
    expect(stories.map((s) => s.status)).toEqual(['approved', 'approved', 'rejected', 'generated', 'generated']);

    // Units: the story versions with two or more verdicts (story 5 has one): A = approve, R = reject.
    const units = [
      ['A', 'A', 'A'],
      ['A', 'R', 'A'],
      ['R', 'R', 'R'],
      ['A', 'A'],
      ['A', 'A', 'A'],
    ];
    const count = (u: string[], k: string) => u.filter((x) => x === k).length;
    const agreeing = (u: string[]) => ['A', 'R'].reduce((t, k) => t + count(u, k) * (count(u, k) - 1), 0) / (u.length * (u.length - 1));
    const pa = units.reduce((s, u) => s + agreeing(u), 0) / units.length;
    const piA = units.reduce((s, u) => s + u.filter((x) => x === 'A').length / u.length, 0) / units.length;
    const kappa = (pa - (piA ** 2 + (1 - piA) ** 2)) / (1 - (piA ** 2 + (1 - piA) ** 2));
    const ac1 = (pa - 2 * piA * (1 - piA)) / (1 - 2 * piA * (1 - piA));
    expect([pa, kappa, ac1].map((x) => x.toFixed(6))).toEqual(['0.866667', '0.659091', '0.781022']);
    const a = reviewAgreement(stories)!;
    expect(a).toMatchObject({ reviewers: ['ana', 'ben', 'cy'], versions: 5, verdicts: 14 });
    expect(a.percentAgreement).toBeCloseTo(pa, 12);
    expect(a.fleissKappa).toBeCloseTo(kappa, 12);
    expect(a.gwetAC1).toBeCloseTo(ac1, 12);
    expect(a.byReviewer).toEqual([
      { reviewer: 'ana', approve: 5, reject: 1 },
      { reviewer: 'ben', approve: 3, reject: 2 },
      { reviewer: 'cy', approve: 3, reject: 1 },
    ]);
    const st = storyTurnDatasetStats(stories);
    expect(st.agreement).toEqual(a);
    expect(st.rejections).toEqual({ stories: 1, byType: { 'image-issue': 1 }, notesByType: { 'image-issue': 4 } });

    const dir = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-reviews-'));
    saveStoryTurns(join(dir, 's.jsonl'), stories);
    const line = `reviewers: ana 5 approve / 1 reject, ben 3 approve / 2 reject, cy 3 approve / 1 reject; agreement over 5 story version(s) judged by two or more reviewers (14 verdicts): 86.7%, Fleiss' kappa ${kappa.toFixed(3)}, Gwet's AC1 ${ac1.toFixed(3)}`;
    const reviews = await runCli(['storyturn', 'reviews', join(dir, 's.jsonl')]);
    expect(reviews.stdout).toContain(
      `5 of 5 StoryTurn(s) reviewed; approved when 3 reviewers approve the current version and none rejects it\n${line}\n`,
    );
    expect(reviews.stdout).toMatch(new RegExp(`${ids[1]} +approved +approved by ana, ben, cy +3\\n`));
    expect(reviews.stdout).toMatch(new RegExp(`${ids[3]} +generated +approved by ana, ben; 1 more approval\\(s\\) needed +0\\n`));
    expect((await runCli(['storyturn', 'stats', join(dir, 's.jsonl')])).stdout).toContain(`${line}\n`);
    // The suite runs the approved ones.
    const suite = await loadStoryTurnSuite(join(dir, 's.jsonl'));
    expect(suite.items.map((i) => i.id)).toEqual([ids[0], ids[1]]);
  });
});

describe('files that record one status per story', () => {
  it('keep loading with their status and notes; a verdict list that does not fit is refused naming the line and field', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-storyturn-oldreview-'));
    const [a, b, c] = generateStoryTurns({ count: 3, seed: 8 }).map(({ state, ...s }) => ({ ...s, mental_state: state }));
    if (!a || !b || !c) throw new Error('three stories expected');
    writeFileSync(
      join(dir, 'old.json'),
      JSON.stringify([
        { ...a, status: 'approved' },
        { ...b, status: 'rejected', review: ['answer-revealed: says where it is'] },
        { ...c, status: 'generated' },
      ]),
    );
    const old = await readStoryTurns(join(dir, 'old.json'));
    expect(old.map((s) => [s.status, s.review ?? null, s.reviews ?? null])).toEqual([
      ['approved', null, null],
      ['rejected', ['answer-revealed: says where it is'], null],
      ['generated', null, null],
    ]);
    expect(storyTurnDatasetStats(old).rejections.byType).toEqual({ 'answer-revealed': 1 });
    expect(storyTurnDatasetStats(old).agreement).toBeNull();
    // A file that says approved but holds one approval: the verdicts decide.
    const hash = storyContentHash(old[0]!);
    writeFileSync(
      join(dir, 'mixed.jsonl'),
      `${JSON.stringify({ ...a, status: 'approved', reviews: [{ reviewer: 'ana', verdict: 'approve', content: hash }] })}\n`,
    );
    expect((await readStoryTurns(join(dir, 'mixed.jsonl')))[0]!.status).toBe('generated');
    writeFileSync(
      join(dir, 'bad.jsonl'),
      `${JSON.stringify(a)}\n${JSON.stringify({ ...b, reviews: [{ reviewer: 'ana', verdict: 'maybe', content: hash }] })}\n`,
    );
    await expect(readStoryTurns(join(dir, 'bad.jsonl'))).rejects.toThrow(/bad\.jsonl:2: reviews\[0\]\.verdict must be approve or reject/);
    writeFileSync(join(dir, 'bad2.jsonl'), `${JSON.stringify({ ...b, reviews: [{ verdict: 'approve', content: hash }] })}\n`);
    await expect(readStoryTurns(join(dir, 'bad2.jsonl'))).rejects.toThrow(/bad2\.jsonl:1: reviews\[0\]\.reviewer must name the reviewer/);
    const cli = await runCli(['storyturn', 'review', join(dir, 'old.json'), '--id', a.id, '--approve']);
    expect(cli.stderr).toMatch(/required option '--reviewer <name>' not specified/);
  });
});
