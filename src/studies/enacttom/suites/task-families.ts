// The task families of the procedural generator, each a way to make agents depend on one
// another's knowledge (EnactToM's task patterns); each writes the core of a task into a draft:
//   relay              an object must go onto (or into) furniture whose identity only an agent
//                      who cannot get there knows; with split hands, the one who knows opens
//                      the container and the other, who cannot open anything, carries
//   joint-placement    two objects, two targets, two actors: each actor needs the other's secret
//   hidden-key         the object lies in a locked container that only a remote lever opens, and
//                      the lever is known to a third party
//   mixed-motive       deception-resistant: a teammate privately wants a shared-goal container
//                      closed; the public text warns that claims need checking
//   mirrored-state     a locked container that only its mirrored twin opens (and now and then
//                      a reverse-wired source)
//   remote-chain       two locked containers, each opened by a lever in another room, the
//                      wirings known to different agents
// The extra goal parts (goal-parts.ts), the epistemic layer, the capabilities, the communication
// graph and the budgets are added around the core by task-generator.ts.

import type { TaskDraft } from './task-draft.js';
import { word } from './task-draft.js';

export const TASK_FAMILIES = ['relay', 'joint-placement', 'hidden-key', 'mixed-motive', 'mirrored-state', 'remote-chain'] as const;
export type TaskFamily = (typeof TASK_FAMILIES)[number];

/** How a family's core is drawn: the main target a container (placed inside) or a surface; split hands (relay only). */
export interface FamilyOptions {
  into: boolean;
  splitHands: boolean;
}

/** Objects the core of a family uses. */
export function familyObjects(family: TaskFamily): number {
  return family === 'joint-placement' ? 2 : 1;
}

/** Whether a family can place its main object inside a container (remote-chain locks the target room's container). */
export function familyAllowsInto(family: TaskFamily): boolean {
  return family !== 'remote-chain';
}

/**
 * The core of a family in a draft (agent_0 informs, agent_1 acts, agent_2 or agent_0 is the
 * third party): the main placement, its secrets and bars, the family's mechanics and further
 * atoms, the roles, the public text and the title.
 */
export function draftFamily(family: TaskFamily, d: TaskDraft, o: FamilyOptions): void {
  const agents = d.agents;
  const [informer, actor] = [agents[0]!, agents[1]!];
  const third = agents[2] ?? informer;
  const [roomA, roomB, roomC, roomD] = [d.rooms[0]!, d.rooms[1]!, d.rooms[2]!, d.rooms[3]!];
  const thing = d.thing();
  const source = d.box(roomA);
  const into = o.into && familyAllowsInto(family);
  const target = into ? d.box(roomB) : d.top(roomB);
  const on = into ? 'inside' : 'on';
  for (const f of [source, target]) d.used.add(f.id);
  d.init.push(`(is_inside ${thing} ${source.id})`);
  d.atoms.push({ text: `(${into ? 'is_inside' : 'is_on_top'} ${thing} ${target.id})`, room: roomB, furniture: target.id, chain: true });
  d.bar(informer, roomB);
  const place = [into ? 'Open' : null, 'Pick', 'Place'].filter((x): x is 'Open' | 'Pick' | 'Place' => !!x);
  const placeSecret = () => d.secrets[informer]!.push(`The ${word(thing)} (${thing}) must end up ${on} ${target.id} in ${roomB}.`);
  const whereSecret = (who: string) => d.secrets[who]!.push(`You know ${thing} is stored inside ${source.id} in ${roomA}.`);
  const where = into ? 'in the right container' : 'on the right surface';
  switch (family) {
    case 'relay': {
      placeSecret();
      if (o.splitHands && !into) {
        // The one who knows opens; the other carries and cannot open anything.
        whereSecret(informer);
        d.act(informer, [roomA], ['Open', 'Close']);
        d.act(actor, [roomA, roomB], ['Pick', 'Place']);
        d.forbidden[actor]!.add('Open').add('Close');
        d.forbidden[informer]!.add('Pick').add('Place');
        d.text.push(
          `The ${word(thing)} (${thing}) has to be placed ${where} in ${roomB}. One of you can open things, another can carry them; only one of you knows where it goes.`,
        );
        d.title = `Open and carry the ${word(thing)}`;
      } else {
        whereSecret(actor);
        d.act(actor, [roomA, roomB], ['Open', 'Close', ...place]);
        d.text.push(`The ${word(thing)} (${thing}) has to be placed ${where} in ${roomB}; only one of you knows which.`);
        d.title = `Relay the ${word(thing)}`;
      }
      return;
    }
    case 'joint-placement': {
      // Each actor can do one placement and needs the other's secret for it.
      const other = d.thing();
      const second = d.box(roomD);
      const shelf = d.top(roomC);
      d.used.add(second.id);
      d.init.push(`(is_on_top ${other} ${shelf.id})`);
      d.bar(actor, roomD);
      placeSecret();
      whereSecret(actor);
      d.secrets[actor]!.push(`The ${word(other)} (${other}) must end up inside ${second.id} in ${roomD}.`);
      d.secrets[informer]!.push(`You know ${other} is on ${shelf.id} in ${roomC}.`);
      d.atoms.push({ text: `(is_inside ${other} ${second.id})`, room: roomD, furniture: second.id, chain: true });
      d.act(actor, [roomA, roomB], ['Open', ...place]);
      d.act(informer, [roomC, roomD], ['Open', 'Pick', 'Place']);
      d.text.push(
        `Two things must be put away: the ${word(thing)} (${thing}) in ${roomB} and the ${word(other)} (${other}) in ${roomD}. Each of you knows where only one of them goes.`,
      );
      d.title = `Put away the ${word(thing)} and the ${word(other)} together`;
      return;
    }
    case 'hidden-key': {
      const lever = d.box(roomD);
      d.used.add(lever.id);
      if (third !== informer) d.bar(third, roomA);
      placeSecret();
      whereSecret(actor);
      d.secrets[third]!.push(
        `${source.id} is locked; it is wired to ${lever.id} in ${roomD}: opening ${lever.id} remotely opens ${source.id}.`,
      );
      d.init.push(`(is_locked ${source.id})`);
      d.bindings.push({
        mechanic_type: 'remote_control',
        trigger_object: lever.id,
        target_object: source.id,
        target_state: 'open',
        count: null,
      });
      d.act(third, [roomD], ['Open']);
      d.act(actor, [roomA, roomB], place);
      d.text.push(
        `The ${word(thing)} (${thing}) has to be placed ${where} in ${roomB}, but it is locked away; one of you knows how to get at it.`,
      );
      d.title = `Unlock the ${word(thing)}`;
      return;
    }
    case 'mixed-motive': {
      // The shared goal opens a container that one teammate privately wants closed.
      const shared = d.box(roomC);
      d.used.add(shared.id);
      const tempted = agents[agents.length - 1]!;
      placeSecret();
      whereSecret(actor);
      d.secrets[informer]!.push(`${shared.id} in ${roomC} must also end open.`);
      d.secrets[tempted]!.push(`Privately, you want ${shared.id} in ${roomC} to end closed; the others need not know.`);
      d.privateGoals[tempted] = `(is_closed ${shared.id})`;
      d.atoms.push({ text: `(is_open ${shared.id})`, room: roomC, furniture: shared.id, chain: true });
      d.act(actor, [roomA, roomB], ['Open', ...place]);
      d.act(informer, [roomC], ['Open']);
      d.text.push(
        `The ${word(thing)} (${thing}) has to be placed ${where} in ${roomB}, and a container must be left open. Not everyone may want the same outcome: check what you are told.`,
      );
      d.title = `Guard the ${word(thing)}`;
      return;
    }
    case 'mirrored-state': {
      // Besides the placement, a locked container in roomC must end open: only its twin in
      // roomD (mirrored) opens it; the source may also be wired in reverse (inverse).
      const locked = d.box(roomC);
      const twin = d.box(roomD);
      for (const f of [locked, twin]) d.used.add(f.id);
      const inverse = d.rng.next() < 0.5;
      placeSecret();
      whereSecret(actor);
      d.secrets[informer]!.push(`${locked.id} in ${roomC} must end open.`);
      d.secrets[informer]!.push(`${locked.id} is locked but mirrors ${twin.id} in ${roomD}: it takes whatever state ${twin.id} is put in.`);
      d.bindings.push({
        mechanic_type: 'state_mirroring',
        trigger_object: twin.id,
        target_object: locked.id,
        target_state: null,
        count: null,
      });
      if (inverse) {
        d.bindings.push({
          mechanic_type: 'inverse_state',
          trigger_object: source.id,
          target_object: null,
          target_state: null,
          count: null,
        });
        d.secrets[actor]!.push(`${source.id} is wired in reverse: Open closes it and Close opens it.`);
      }
      d.init.push(`(is_locked ${locked.id})`);
      d.atoms.push({ text: `(is_open ${locked.id})`, room: roomC, furniture: locked.id, chain: true });
      d.act(actor, [roomA, roomB], ['Open', 'Close', ...place]);
      d.act(informer, [roomD], ['Open']);
      d.text.push(
        `The ${word(thing)} (${thing}) has to be placed ${where} in ${roomB}, and a locked container must end open; some containers here do not behave as they look.`,
      );
      d.title = inverse ? 'Mirror and reverse' : 'Mirrored twins';
      return;
    }
    case 'remote-chain': {
      // Two locked containers, each opened by a lever elsewhere; different agents know the wirings.
      const gate = d.box(roomB);
      const lever1 = d.box(roomC);
      const lever2 = d.box(roomD);
      for (const f of [gate, lever1, lever2]) d.used.add(f.id);
      placeSecret();
      whereSecret(actor);
      d.secrets[informer]!.push(`${gate.id} in ${roomB} must end open.`);
      d.secrets[third]!.push(`${source.id} is locked; opening ${lever1.id} in ${roomC} remotely opens ${source.id}.`);
      d.secrets[informer]!.push(`${gate.id} is locked; opening ${lever2.id} in ${roomD} remotely opens ${gate.id}.`);
      d.init.push(`(is_locked ${source.id})`, `(is_locked ${gate.id})`);
      d.atoms.push({ text: `(is_open ${gate.id})`, room: roomB, furniture: gate.id, chain: true });
      d.bindings.push(
        { mechanic_type: 'remote_control', trigger_object: lever1.id, target_object: source.id, target_state: 'open', count: null },
        { mechanic_type: 'remote_control', trigger_object: lever2.id, target_object: gate.id, target_state: 'open', count: null },
      );
      d.act(third, [roomC], ['Open']);
      d.act(informer, [roomD], ['Open']);
      d.act(actor, [roomA, roomB], place);
      d.text.push(
        `The ${word(thing)} (${thing}) has to be placed ${where} in ${roomB}; two locks stand in the way, and their levers are elsewhere.`,
      );
      d.title = `Levers for the ${word(thing)}`;
      return;
    }
  }
}
