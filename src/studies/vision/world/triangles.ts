// Animated triangles (Heider and Simmel; Abell, Happe and Frith 2000): a large and a small
// triangle in a frame with an enclosure and a door. Each behaviour is a small state machine in
// which each triangle reacts to the other's position and heading; twelve behaviours in three
// conditions: ToM (coaxing, mocking, seducing, surprising), goal-directed (chasing, fighting,
// following, dancing), random (bouncing, drifting, star, tennis). A clip is the trajectory
// sampled at N evenly spaced times ((i + 0.5) D / N), with a script that tells a judge what
// happens (the subject never sees it).

import type { Rng } from '../../../core/index.js';

export const TRIANGLE_BEHAVIOURS = {
  tom: ['coaxing', 'mocking', 'seducing', 'surprising'],
  'goal-directed': ['chasing', 'fighting', 'following', 'dancing'],
  random: ['bouncing', 'drifting', 'star', 'tennis'],
} as const;

export type TriangleCondition = keyof typeof TRIANGLE_BEHAVIOURS;

export interface Pose {
  x: number;
  y: number;
  heading: number;
}

export interface TriangleFrame {
  big: Pose;
  small: Pose;
}

export interface TriangleClip {
  behaviour: string;
  condition: TriangleCondition;
  script: string;
  /** The sampled frames, at (i + 0.5) D / N. */
  frames: TriangleFrame[];
  /** Every tick of the motion (for a native video of the clip). */
  trajectory: TriangleFrame[];
}

/** The field: 0..100 x 0..75; the enclosure spans x 60..90, y 20..55 with a door on its left wall (y 32..43). */
export const FIELD = { w: 100, h: 75, enclosure: { x0: 60, y0: 20, x1: 90, y1: 55 }, door: { y0: 32, y1: 43 } };

const SCRIPTS: Record<string, string> = {
  coaxing:
    'The big triangle is outside; the small one stays in the enclosure. The big one approaches gently, backs away towards the door, returns, and coaxes the small one until it comes out and both move off together.',
  mocking:
    'The small triangle follows behind the big one and copies its moves while the big one faces away; when the big one turns round, the small one freezes and pretends to do nothing.',
  seducing: 'The big triangle circles the small one slowly, then moves into the enclosure; the small one, attracted, follows it inside.',
  surprising:
    'The small triangle hides behind the door of the enclosure; when the big one comes near, the small one jumps out at it and the big one startles and backs away.',
  chasing: 'The big triangle chases the small one, which runs away around the field.',
  fighting: 'The two triangles repeatedly approach, bump into each other and back off.',
  following: 'The small triangle follows the big one along its path.',
  dancing: 'The two triangles move in mirrored circles around the centre, like a dance.',
  bouncing: 'Both triangles move in straight lines and bounce off the walls, without reacting to each other.',
  drifting: 'Both triangles drift slowly in random directions.',
  star: 'Each triangle traces a star-shaped path on its own.',
  tennis: 'The triangles move back and forth horizontally, each on its own side, like a tennis rally without a ball.',
};

const dist = (a: Pose, b: Pose) => Math.hypot(a.x - b.x, a.y - b.y);
const towards = (a: Pose, b: Pose) => Math.atan2(b.y - a.y, b.x - a.x);
const clamp = (p: Pose): Pose => ({ ...p, x: Math.min(97, Math.max(3, p.x)), y: Math.min(72, Math.max(3, p.y)) });
const step = (p: Pose, heading: number, speed: number): Pose =>
  clamp({ heading, x: p.x + Math.cos(heading) * speed, y: p.y + Math.sin(heading) * speed });

/** One tick of a behaviour: both triangles react to each other (ToM, goal-directed) or not (random). */
function tick(behaviour: string, t: number, f: TriangleFrame, rng: Rng, mem: Record<string, number>): TriangleFrame {
  const { big, small } = f;
  const door: Pose = { x: FIELD.enclosure.x0 - 4, y: (FIELD.door.y0 + FIELD.door.y1) / 2, heading: 0 };
  const inside: Pose = { x: 78, y: 37, heading: 0 };
  switch (behaviour) {
    case 'coaxing': {
      const phase = Math.floor(t / 30) % 3;
      const bigNext =
        phase === 0
          ? step(big, towards(big, door), 0.8)
          : phase === 1
            ? step(big, towards(big, { x: 30, y: 37, heading: 0 }), 0.8)
            : step(big, towards(big, door), 0.8);
      const smallNext =
        t > 60 && dist(small, big) < 30 ? step(small, towards(small, big), 0.7) : { ...small, heading: towards(small, big) };
      return { big: bigNext, small: smallNext };
    }
    case 'mocking': {
      const bigTurned = Math.floor(t / 25) % 2 === 1;
      const bigNext = bigTurned ? { ...big, heading: towards(big, small) } : step(big, 0.4 * Math.sin(t / 15), 0.7);
      const smallNext = bigTurned ? small : step(small, big.heading, 0.7);
      return { big: bigNext, small: smallNext };
    }
    case 'seducing': {
      const a = t / 12;
      const bigNext =
        t < 80
          ? clamp({ x: small.x + 12 * Math.cos(a), y: small.y + 12 * Math.sin(a), heading: a + Math.PI / 2 })
          : step(big, towards(big, t < 110 ? door : inside), 0.8);
      const smallNext = t < 80 ? { ...small, heading: towards(small, big) } : step(small, towards(small, big), 0.65);
      return { big: bigNext, small: smallNext };
    }
    case 'surprising': {
      const near = dist(big, door) < 10;
      if (near && mem.jumped === undefined) mem.jumped = t;
      const jumped = mem.jumped !== undefined;
      const bigNext = jumped ? step(big, towards(small, big), 1.2) : step(big, towards(big, door), 0.6);
      const smallNext = jumped && t - mem.jumped! < 10 ? step(small, towards(small, big), 1.5) : { ...small, heading: towards(small, big) };
      return { big: bigNext, small: smallNext };
    }
    case 'chasing':
      return { big: step(big, towards(big, small), 0.9), small: step(small, towards(big, small) + 0.4 * Math.sin(t / 10), 1.0) };
    case 'fighting': {
      const back = Math.floor(t / 12) % 2 === 1;
      return {
        big: step(big, towards(big, small) + (back ? Math.PI : 0), 0.9),
        small: step(small, towards(small, big) + (back ? Math.PI : 0), 0.9),
      };
    }
    case 'following':
      return {
        big: step(big, big.heading + 0.05 * Math.sin(t / 20) + (big.x > 90 || big.x < 10 ? Math.PI / 30 : 0), 0.8),
        small: dist(small, big) > 6 ? step(small, towards(small, big), 0.8) : small,
      };
    case 'dancing': {
      const a = t / 15;
      return {
        big: { x: 50 + 18 * Math.cos(a), y: 37 + 14 * Math.sin(a), heading: a + Math.PI / 2 },
        small: { x: 50 - 18 * Math.cos(a), y: 37 - 14 * Math.sin(a), heading: a - Math.PI / 2 },
      };
    }
    case 'bouncing': {
      const bounce = (p: Pose): Pose => {
        let h = p.heading;
        const n = step(p, h, 1);
        if (n.x <= 3 || n.x >= 97) h = Math.PI - h;
        if (n.y <= 3 || n.y >= 72) h = -h;
        return step(p, h, 1);
      };
      return { big: bounce(big), small: bounce(small) };
    }
    case 'drifting':
      return {
        big: step(big, big.heading + (rng.next() - 0.5) * 0.6, 0.4),
        small: step(small, small.heading + (rng.next() - 0.5) * 0.6, 0.4),
      };
    case 'star': {
      const pt = (cx: number, cy: number, r: number, k: number) => {
        const a = (k * 4 * Math.PI) / 5 - Math.PI / 2;
        return { x: cx + r * Math.cos(a), y: cy + r * Math.sin(a) };
      };
      const along = (cx: number, cy: number, r: number, speed: number): Pose => {
        const u = (t * speed) % 5;
        const k = Math.floor(u);
        const p0 = pt(cx, cy, r, k);
        const p1 = pt(cx, cy, r, k + 1);
        const w = u - k;
        return { x: p0.x + (p1.x - p0.x) * w, y: p0.y + (p1.y - p0.y) * w, heading: Math.atan2(p1.y - p0.y, p1.x - p0.x) };
      };
      return { big: along(28, 37, 20, 0.03), small: along(72, 37, 14, 0.05) };
    }
    case 'tennis': {
      const x = (speed: number, lo: number, hi: number) => lo + (hi - lo) * (0.5 + 0.5 * Math.sin(t * speed));
      return {
        big: { x: x(0.05, 10, 45), y: 25, heading: Math.cos(t * 0.05) > 0 ? 0 : Math.PI },
        small: { x: x(0.07, 55, 90), y: 55, heading: Math.cos(t * 0.07) > 0 ? 0 : Math.PI },
      };
    }
    default:
      throw new Error(`unknown behaviour "${behaviour}"`);
  }
}

/** N frames of a trajectory, sampled at (i + 0.5) D / N. */
export function sampleFrames(trajectory: TriangleFrame[], n: number): TriangleFrame[] {
  const ticks = trajectory.length;
  return Array.from({ length: n }, (_, i) => trajectory[Math.min(ticks - 1, Math.floor(((i + 0.5) * ticks) / n))]!);
}

/** A clip of a behaviour (seeded): every tick of its motion, and N frames sampled at (i + 0.5) D / N. */
export function makeTriangleClip(behaviour: string, rng: Rng, opts: { ticks?: number; frames?: number } = {}): TriangleClip {
  const condition = (Object.keys(TRIANGLE_BEHAVIOURS) as TriangleCondition[]).find((c) =>
    (TRIANGLE_BEHAVIOURS[c] as readonly string[]).includes(behaviour),
  );
  if (!condition) throw new Error(`unknown behaviour "${behaviour}"`);
  const ticks = opts.ticks ?? 160;
  const n = opts.frames ?? 16;
  const start: TriangleFrame =
    behaviour === 'coaxing' || behaviour === 'seducing'
      ? { big: { x: 25, y: 37, heading: 0 }, small: { x: 78, y: 37, heading: Math.PI } }
      : behaviour === 'surprising'
        ? { big: { x: 15, y: 20, heading: 0 }, small: { x: 62, y: 37, heading: Math.PI } }
        : {
            big: { x: 20 + rng.next() * 20, y: 20 + rng.next() * 35, heading: rng.next() * 2 * Math.PI },
            small: { x: 45 + rng.next() * 20, y: 20 + rng.next() * 35, heading: rng.next() * 2 * Math.PI },
          };
  const trajectory: TriangleFrame[] = [start];
  const mem: Record<string, number> = {};
  for (let t = 1; t < ticks; t++) trajectory.push(tick(behaviour, t, trajectory[t - 1]!, rng, mem));
  const frames = sampleFrames(trajectory, n);
  // SCRIPTS has one script per behaviour of TRIANGLE_BEHAVIOURS.
  return { behaviour, condition, script: SCRIPTS[behaviour]!, frames, trajectory };
}
