// The epistemic part of a generated goal, composed over the draft's physical atoms. A chain
// (K w_d ... (K w_1 phi)) ends at a witness w_1 who is barred from the room where phi comes
// true (so it has to be told), consecutive witnesses differ. Shapes:
//   chain    one chain of the requested depth over one atom (the main one or another)
//   fan      two chains over the same atom whose witnesses differ somewhere (branching: two
//            agents must know, or one agent must know that two others know)
//   multi    chains over two or three different atoms, the first of the requested depth, the
//            others of any depth up to it
//   nested   one chain over the conjunction of two atoms that come true in the same room
//            (a container there is added to the goal when the draft has no second atom there)
// A shape the draft cannot carry (too few agents or atoms) falls back to the next simpler one.

import type { DraftAtom, TaskDraft } from './task-draft.js';

export const KNOWLEDGE_SHAPES = ['chain', 'fan', 'multi', 'nested'] as const;
export type KnowledgeShape = (typeof KNOWLEDGE_SHAPES)[number];

export interface EpistemicLayer {
  /** The shape built (after any fallback). */
  shape: KnowledgeShape;
  /** The goal's epistemic conjuncts as PDDL text. */
  parts: string[];
  /** Each chain's witnesses, innermost first. */
  chains: string[][];
}

/** Agents that may be kept out of the atom's room (the draft needs none of them there). */
function barrable(d: TaskDraft, atom: DraftAtom): string[] {
  return d.agents.filter((a) => !d.roles[a]!.rooms.has(atom.room));
}

/** Witnesses innermost first for a chain of `depth` over `atom`; null when nobody may be kept out. */
function witnesses(d: TaskDraft, atom: DraftAtom, depth: number): string[] | null {
  const inner = barrable(d, atom);
  if (inner.length === 0) return null;
  const kept = inner.filter((a) => d.barred[a]!.includes(atom.room));
  const ws = [kept.length && d.rng.next() < 0.6 ? d.rng.pick(kept) : d.rng.pick(inner)];
  for (let k = 1; k < depth; k++) ws.push(d.rng.pick(d.agents.filter((a) => a !== ws[k - 1])));
  return ws;
}

/** The chain's witnesses changed at one place (still a valid chain), or null when no change is possible. */
function variant(d: TaskDraft, atom: DraftAtom, ws: string[]): string[] | null {
  const inner = barrable(d, atom);
  const options = ws.flatMap((w, j) =>
    d.agents
      .filter((a) => a !== w && a !== ws[j - 1] && a !== ws[j + 1] && (j > 0 || inner.includes(a)))
      .map((a) => ws.map((x, k) => (k === j ? a : x))),
  );
  return options.length ? d.rng.pick(options) : null;
}

function chainText(phi: string, ws: string[]): string {
  return ws.reduce((f, w) => `(K ${w} ${f})`, phi);
}

/** Bar each chain's innermost witness from its atom's room. */
function barInner(d: TaskDraft, atom: DraftAtom, ws: string[]): void {
  d.bar(ws[0]!, atom.room);
}

/** A second atom in the room of `atom`: one the draft has, or a container there that must end open. */
function partner(d: TaskDraft, atom: DraftAtom): DraftAtom | null {
  const same = d.atoms.filter((x) => x !== atom && x.chain && x.room === atom.room);
  if (same.length) return d.rng.pick(same);
  const box = d.free({ container: true, rooms: [atom.room] });
  if (!box) return null;
  const doers = d.canEnter([box.room]).filter((a) => d.roles[a]!.rooms.has(atom.room));
  if (doers.length === 0) return null;
  const added: DraftAtom = { text: `(is_open ${box.id})`, room: box.room, furniture: box.id, chain: true };
  d.atoms.push(added);
  d.act(d.rng.pick(doers), [box.room], ['Open', 'Close']);
  d.secrets[d.rng.pick(d.agents)]!.push(`${box.id} in ${box.room} must end open.`);
  d.text.push('A container must also be left open.');
  return added;
}

/** Build the epistemic layer of the requested depth and shape into the draft (bars included). */
export function addKnowledge(d: TaskDraft, depth: number, shape: KnowledgeShape): EpistemicLayer {
  const cands = d.atoms.filter((a) => a.chain && barrable(d, a).length > 0);
  const main = d.atoms[0]!;
  const phi = d.rng.next() < 0.5 || cands.length === 0 ? main : d.rng.pick(cands);
  const tried = witnesses(d, phi, depth);
  const firstAtom = tried ? phi : main;
  // The main atom's informer is barred from its room and has no role there.
  const first = tried ?? witnesses(d, main, depth)!;
  const chains: Array<{ atom: DraftAtom; ws: string[]; text: string }> = [];
  const single = (): EpistemicLayer => {
    chains.push({ atom: firstAtom, ws: first, text: chainText(firstAtom.text, first) });
    return finish('chain');
  };
  const finish = (built: KnowledgeShape): EpistemicLayer => {
    for (const c of chains) barInner(d, c.atom, c.ws);
    return { shape: built, parts: chains.map((c) => c.text), chains: chains.map((c) => c.ws) };
  };
  if (shape === 'chain') return single();
  if (shape === 'fan') {
    const depth2 = 1 + d.rng.int(depth);
    const base = depth2 === depth ? first : first.slice(0, depth2);
    const other = variant(d, firstAtom, base);
    if (!other) return addKnowledge(d, depth, 'multi');
    chains.push({ atom: firstAtom, ws: first, text: chainText(firstAtom.text, first) });
    chains.push({ atom: firstAtom, ws: other, text: chainText(firstAtom.text, other) });
    return finish('fan');
  }
  if (shape === 'multi') {
    const others = cands.filter((a) => a !== firstAtom);
    if (others.length === 0) return single();
    chains.push({ atom: firstAtom, ws: first, text: chainText(firstAtom.text, first) });
    const extra = others.length >= 2 && d.agents.length >= 3 && d.rng.next() < 0.35 ? 2 : 1;
    for (const atom of d.rng.shuffle(others).slice(0, extra)) {
      const ws = witnesses(d, atom, 1 + d.rng.int(depth));
      if (ws) chains.push({ atom, ws, text: chainText(atom.text, ws) });
    }
    return finish(chains.length > 1 ? 'multi' : 'chain');
  }
  // nested: knowledge of two atoms of one room together.
  const second = partner(d, firstAtom);
  if (!second) return single();
  const both: DraftAtom = {
    text: `(and ${firstAtom.text} ${second.text})`,
    room: firstAtom.room,
    furniture: firstAtom.furniture,
    chain: true,
  };
  const ws = witnesses(d, both, depth);
  if (!ws) return single();
  chains.push({ atom: both, ws, text: chainText(both.text, ws) });
  return finish('nested');
}
