// Extra goal parts the generator composes with a family's core, each with its object (if any),
// its secret, the agent who knows it and the agent who has to do it:
//   place        another object to move: (is_on_top o f) or (is_inside o c), from a surface or
//                from inside a container, the target known to one agent
//   switch       a container that must end open (it starts closed) or closed (it starts open)
//   either       a disjunctive target: (or (is_on_top o f) (is_inside o c))
//   conditional  a conditional goal on a container that starts open: if it is left open, an
//                object must be inside it: (or (not (is_open c)) (is_inside o c))
//   hold         an agent must end holding an object: (is_held_by o agent)
// Where a new object starts is a secret of one agent (always when it is inside a container).
// Public sentences never name what a part asks for, so that only the secrets carry it.

import type { TaskDraft } from './task-draft.js';
import { word } from './task-draft.js';

export const GOAL_PARTS = ['place', 'switch', 'either', 'conditional', 'hold'] as const;
export type GoalPart = (typeof GOAL_PARTS)[number];

/** Objects a part adds. */
export function partObjects(part: GoalPart): number {
  return part === 'switch' ? 0 : 1;
}

/**
 * A new object on a free surface (or any surface) or, now and then, inside a free container,
 * with a secret saying where it is: always when it is inside (closed, it cannot be seen), else
 * now and then (a visible object can also be found by looking).
 */
function stage(d: TaskDraft, allowInside: boolean): { o: string; at: string; room: string; inside: boolean } {
  const o = d.thing();
  const box = allowInside && d.rng.next() < 0.5 ? d.free({ container: true }) : undefined;
  const f = box ?? d.free({ container: false }) ?? d.rng.pick(d.furniture.filter((x) => !x.container));
  d.init.push(`(${box ? 'is_inside' : 'is_on_top'} ${o} ${f.id})`);
  if (box || d.rng.next() < 0.6) d.secrets[d.rng.pick(d.agents)]!.push(`You know ${o} is ${box ? 'inside' : 'on'} ${f.id} in ${f.room}.`);
  return { o, at: f.id, room: f.room, inside: !!box };
}

/** A random agent of a list (the generator's rng). */
const anyOf = (d: TaskDraft, xs: string[]) => d.rng.pick(xs);

/** Add one extra part; false when the draft has no room for it (no free furniture, no one to act). */
export function addPart(d: TaskDraft, part: GoalPart): boolean {
  const rng = d.rng;
  switch (part) {
    case 'place': {
      const target = d.free({});
      if (!target) return false;
      const s = stage(d, true);
      const doers = d.canEnter([s.room, target.room]);
      if (doers.length === 0) return false;
      const doer = anyOf(d, doers);
      const inside = target.container;
      d.atoms.push({
        text: `(${inside ? 'is_inside' : 'is_on_top'} ${s.o} ${target.id})`,
        room: target.room,
        furniture: target.id,
        chain: true,
      });
      d.act(doer, [s.room, target.room], [...(s.inside || inside ? (['Open'] as const) : []), 'Pick', 'Place']);
      d.secrets[anyOf(d, d.agents)]!.push(
        `The ${word(s.o)} (${s.o}) must end up ${inside ? 'inside' : 'on'} ${target.id} in ${target.room}.`,
      );
      d.text.push(`Something else has to be put away as well; one of you knows what.`);
      return true;
    }
    case 'switch': {
      const box = d.free({ container: true });
      if (!box) return false;
      const doers = d.canEnter([box.room]);
      if (doers.length === 0) return false;
      const open = rng.next() < 0.6;
      if (!open) d.startOpen.add(box.id);
      d.atoms.push({ text: `(${open ? 'is_open' : 'is_closed'} ${box.id})`, room: box.room, furniture: box.id, chain: true });
      d.act(anyOf(d, doers), [box.room], ['Open', 'Close']);
      d.secrets[anyOf(d, d.agents)]!.push(`${box.id} in ${box.room} must end ${open ? 'open' : 'closed'}.`);
      d.text.push(`A container must also be left ${open ? 'open' : 'closed'}.`);
      return true;
    }
    case 'either': {
      const top = d.free({ container: false });
      const box = d.free({ container: true, not: top ? [top.room] : [] });
      if (!top || !box) return false;
      const s = stage(d, false);
      const doers = d.canEnter([s.room, top.room]);
      if (doers.length === 0) return false;
      d.clauses.push(`(or (is_on_top ${s.o} ${top.id}) (is_inside ${s.o} ${box.id}))`);
      d.act(anyOf(d, doers), [s.room, top.room], ['Pick', 'Place']);
      d.secrets[anyOf(d, d.agents)]!.push(
        `The ${word(s.o)} (${s.o}) must end up either on ${top.id} in ${top.room} or inside ${box.id} in ${box.room}.`,
      );
      d.text.push('One thing may go to either of two places.');
      return true;
    }
    case 'conditional': {
      // A container that starts open: closing it, or putting the object inside, satisfies it.
      const box = d.free({ container: true });
      if (!box) return false;
      const s = stage(d, false);
      const doers = d.canEnter([box.room]);
      if (doers.length === 0) return false;
      d.startOpen.add(box.id);
      d.clauses.push(`(or (not (is_open ${box.id})) (is_inside ${s.o} ${box.id}))`);
      d.act(anyOf(d, doers), [box.room], ['Open', 'Close']);
      d.secrets[anyOf(d, d.agents)]!.push(`If ${box.id} in ${box.room} is left open, the ${word(s.o)} (${s.o}) must be inside it.`);
      d.text.push('An open container comes with a condition.');
      return true;
    }
    case 'hold': {
      const s = stage(d, false);
      const free = d.agents.filter((a) => !d.roles[a]!.actions.has('Pick') && !d.barred[a]!.includes(s.room));
      if (free.length === 0) return false;
      const holder = anyOf(d, free);
      d.atoms.push({ text: `(is_held_by ${s.o} ${holder})`, room: s.room, furniture: s.at, chain: false });
      d.act(holder, [s.room], ['Pick']);
      d.secrets[anyOf(d, d.agents)]!.push(`${holder} must end the task holding the ${word(s.o)} (${s.o}).`);
      d.text.push('Someone has to end up holding something.');
      return true;
    }
  }
}
