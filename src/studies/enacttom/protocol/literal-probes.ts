// Literal ToM probes of an episode, as the EnactToM paper poses them: at the end, an agent is
// asked in words about another agent's mind ("what state does agent_0 think the fridge is
// in?"). Each epistemic node (K a psi) of the goal is put to every agent but a, about a; the
// right answer is what a thinks as the episode tracked it (what a saw, and what it was told),
// not what is true. Where a's belief is stale or missing the two part, so an agent that
// reports the world instead of its partner's mind is wrong there. To make sure such probes
// exist even when the team did everything right, each agent whose belief about something the
// goal names is false or missing at the end (the first such thing) is asked about once more,
// by the next agent (contrast probes); a goal without epistemic nodes has no probes at all.
//
// Kinds: state (open or closed: for is_open, is_closed), location (where an object is, or
// which room an agent is in), fact (yes, no or unknown: any other physical formula), knows
// (yes or no: psi is itself (K b chi), graded by the knowledge tracking).

import {
  evaluateFormula,
  holds,
  predicates,
  stripEpistemic,
  epistemicNodes,
  type EmbodiedTask,
  type EpisodeBeliefs,
  type Formula,
  type KnowledgeState,
  type World,
  type WorldState,
} from '../world/index.js';
import { type LiteralProbe, type ProbeKind, probeQuestion } from './probe-wording.js';

export type { LiteralProbe, ProbeKind } from './probe-wording.js';

/** What the end of an episode holds: the world, its state, and who knows and thinks what. */
export interface ProbeWorld {
  world: World;
  state: WorldState;
  knowledge: KnowledgeState;
  beliefs: EpisodeBeliefs;
}

/** The kind of probe for psi and the thing it is about. */
function kindOf(psi: Formula, world: World): { kind: ProbeKind; subject: string } {
  if (psi.op === 'K' || psi.op === 'B') return { kind: 'knows', subject: '' };
  if (psi.op !== 'pred') return { kind: 'fact', subject: '' };
  const x = psi.args[0]!;
  const k = world.index.get(x)?.kind;
  switch (psi.name) {
    case 'is_open':
    case 'is_closed':
      return { kind: 'state', subject: x };
    case 'is_on_top':
    case 'is_inside':
    case 'is_held_by':
      return { kind: 'location', subject: x };
    case 'is_in_room':
    case 'agent_in_room':
      return k === 'object' || k === 'agent' ? { kind: 'location', subject: x } : { kind: 'fact', subject: '' };
    default:
      return { kind: 'fact', subject: '' };
  }
}

function makeProbe(world: World, asked: string, node: LiteralProbe['formula'], source: LiteralProbe['source']): LiteralProbe {
  const { kind, subject } = kindOf(node.arg, world);
  const p = { asked, about: node.agent, kind, source, formula: node, subject };
  return { ...p, question: probeQuestion(p, world.index.get(subject)?.kind === 'agent') };
}

const sameProbe = (a: LiteralProbe, b: LiteralProbe) =>
  a.asked === b.asked &&
  a.about === b.about &&
  a.kind === b.kind &&
  (a.kind === 'state' || a.kind === 'location' ? a.subject === b.subject : a.question === b.question);

/** The goal's probes: every epistemic node (K a psi), outermost first, put to every other agent in turn. */
export function goalProbes(task: EmbodiedTask, world: World): LiteralProbe[] {
  const out: LiteralProbe[] = [];
  for (const node of epistemicNodes(task.goal)) {
    for (const asked of world.agents) {
      if (asked === node.agent) continue;
      const p = makeProbe(world, asked, node, 'goal');
      if (!out.some((q) => sameProbe(p, q))) out.push(p);
    }
  }
  return out;
}

/** The right answer: what `about` thinks (state, location, fact) or knows (knows), as the episode tracked it. */
export function partnerAnswer(p: LiteralProbe, at: ProbeWorld): string {
  const { world, beliefs, knowledge } = at;
  const a = world.agents.indexOf(p.about);
  const e = world.index.get(p.subject);
  const psi = p.formula.arg;
  switch (p.kind) {
    case 'state': {
      const v = beliefs.open[a]![e!.i]!;
      return v === -1 ? 'unknown' : v === 1 ? 'open' : 'closed';
    }
    case 'location':
      if (e!.kind === 'agent') {
        const r = beliefs.room[a]![e!.i]!;
        return r === -1 ? 'unknown' : world.rooms[r]!;
      }
      return beliefs.placeName(a, e!.i) ?? 'unknown';
    case 'fact': {
      const v = beliefs.value(a, psi);
      return v === -1 ? 'unknown' : v === 1 ? 'yes' : 'no';
    }
    case 'knows':
      return knowledge.knowsFormula(a, psi) ? 'yes' : 'no';
  }
}

/** What the world shows: the answer of an agent that reports the truth instead of its partner's mind. */
export function worldAnswer(p: LiteralProbe, at: ProbeWorld): string {
  const { world, state: s, knowledge } = at;
  const e = world.index.get(p.subject);
  const truth = (f: Formula) =>
    evaluateFormula(
      f,
      (q) => holds(world, s, q),
      (agent, phi) => knowledge.knowsFormula(world.agents.indexOf(agent), phi),
    );
  switch (p.kind) {
    case 'state':
      return s.open[e!.i] ? 'open' : 'closed';
    case 'location': {
      if (e!.kind === 'agent') return world.rooms[s.agentRoom[e!.i]!]!;
      const loc = s.objLoc[e!.i]!;
      return loc >= 0 ? world.furniture[loc >> 1]! : world.agents[-1 - loc]!;
    }
    case 'fact':
    case 'knows':
      return truth(p.formula.arg) ? 'yes' : 'no';
  }
}

/**
 * Contrast probes at the end of an episode: for each agent, the first thing the goal names (an
 * object's place, a furniture's state, an agent's room) that it thinks of wrongly or not at
 * all, asked of the next agent; none that repeats a goal probe.
 */
export function contrastProbes(task: EmbodiedTask, at: ProbeWorld, existing: readonly LiteralProbe[]): LiteralProbe[] {
  const { world } = at;
  const n = world.agents.length;
  // A goal without epistemic parts has no literal probes (as in the paper), so no contrast either.
  if (n < 2 || epistemicNodes(task.goal).length === 0) return [];
  const seen = new Set<string>();
  const things = predicates(stripEpistemic(task.goal)).filter((q) => {
    const { kind, subject } = kindOf(q, world);
    if (kind !== 'state' && kind !== 'location') return false;
    if (seen.has(subject)) return false;
    seen.add(subject);
    return true;
  });
  const out: LiteralProbe[] = [];
  world.agents.forEach((about, a) => {
    const asked = world.agents[(a + 1) % n]!;
    for (const q of things) {
      const p = makeProbe(world, asked, { op: 'K', agent: about, arg: q }, 'contrast');
      if (partnerAnswer(p, at) === worldAnswer(p, at)) continue;
      if (![...existing, ...out].some((x) => sameProbe(p, x))) out.push(p);
      return;
    }
  });
  return out;
}

/** The answers a probe offers (what a random reporter picks from). */
export function probeOptions(p: LiteralProbe, world: World): string[] {
  switch (p.kind) {
    case 'state':
      return ['open', 'closed', 'unknown'];
    case 'location':
      return world.index.get(p.subject)?.kind === 'agent' ? [...world.rooms, 'unknown'] : [...world.furniture, ...world.agents, 'unknown'];
    case 'fact':
      return ['yes', 'no', 'unknown'];
    case 'knows':
      return ['yes', 'no'];
  }
}

/** The answer field of a JSON reply, else the reply itself. */
function answerText(reply: string): string {
  const m = /\{[\s\S]*?\}/.exec(reply);
  if (m) {
    try {
      const v = (JSON.parse(m[0]) as { answer?: unknown }).answer;
      if (typeof v === 'string') return v;
      if (typeof v === 'boolean') return v ? 'yes' : 'no';
    } catch {
      // read the reply as text
    }
  }
  return reply;
}

const SAYS_UNKNOWN = /\bunknown\b|\b(?:does ?n[o']t|do not|did ?n[o']t) know\b|\bno idea\b|\bnot sure\b/;

/** A reply read as one of the probe's answers (lower case), or null when it gives none or several. */
export function readProbeAnswer(p: LiteralProbe, reply: string, world: World): string | null {
  const text = answerText(reply).trim();
  const lower = text.toLowerCase();
  if (p.kind === 'location') {
    const places = new Set(probeOptions(p, world).filter((o) => o !== 'unknown'));
    let named = [...new Set(text.match(/[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+/g) ?? [])].filter((x) => places.has(x));
    // "agent_0 thinks it is on table_1": the partner's own name is not an answer.
    if (named.length > 1) named = named.filter((x) => x !== p.about);
    if (named.length === 1) return named[0]!;
    return named.length === 0 && SAYS_UNKNOWN.test(lower) ? 'unknown' : null;
  }
  if (p.kind === 'state') {
    if (SAYS_UNKNOWN.test(lower)) return 'unknown';
    const words = new Set(lower.split(/[^a-z]+/));
    const open = words.has('open');
    const closed = words.has('closed') || words.has('shut');
    return open === closed ? null : open ? 'open' : 'closed';
  }
  const w = /\b(yes|no|unknown)\b/.exec(lower);
  return w ? w[1]! : null;
}
