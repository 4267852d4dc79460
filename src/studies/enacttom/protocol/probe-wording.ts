// Literal probes in plain words: a goal formula as a sentence ("cup_1 is on table_2", "agent_1
// knows that fridge_3 is open"), with "you" for the agent being asked, and the question for each
// kind of probe. The wording names things by their ids, as the agents' own prompts do, and
// never shows the goal language.

import type { Formula } from '../world/index.js';

export type ProbeKind = 'state' | 'location' | 'fact' | 'knows';

/** One literal probe: who is asked, about whose mind, on what. */
export interface LiteralProbe {
  /** The agent asked. */
  asked: string;
  /** The partner whose belief or knowledge is asked about. */
  about: string;
  kind: ProbeKind;
  /** goal: an epistemic node of the goal; contrast: a partner whose belief departs from the world. */
  source: 'goal' | 'contrast';
  /** (K about psi): the node probed. */
  formula: Extract<Formula, { op: 'K' | 'B' }>;
  /** state: the furniture; location: the object or agent; fact and knows: empty. */
  subject: string;
  /** The question in words. */
  question: string;
}

/** The subject of a sentence, and its verb, as `asked` reads them: "you are" for itself. */
function who(name: string, asked: string): { s: string; be: string; has: (verb: string) => string } {
  const you = name === asked;
  return { s: you ? 'you' : name, be: you ? 'are' : 'is', has: (verb) => (you ? verb : `${verb}s`) };
}

/** A formula as an English sentence, for the agent `asked` (who reads itself as "you"). */
export function sayFormula(f: Formula, asked: string): string {
  switch (f.op) {
    case 'and':
      return f.args.map((x) => sayFormula(x, asked)).join(', and ');
    case 'or':
      return `either ${f.args.map((x) => sayFormula(x, asked)).join(', or ')}`;
    case 'not':
      return `it is not the case that ${sayFormula(f.arg, asked)}`;
    case 'K':
    case 'B': {
      const a = who(f.agent, asked);
      return `${a.s} ${a.has(f.op === 'K' ? 'know' : 'believe')} that ${sayFormula(f.arg, asked)}`;
    }
    case 'pred': {
      const [x, y] = [f.args[0]!, f.args[1] ?? ''];
      switch (f.name) {
        case 'is_on_top':
          return `${x} is on ${y}`;
        case 'is_inside':
          return `${x} is inside ${y}`;
        case 'is_in_room':
        case 'agent_in_room': {
          const a = who(x, asked);
          return `${a.s} ${a.be} in ${y}`;
        }
        case 'is_held_by': {
          const a = who(y, asked);
          return `${a.s} ${a.be} holding ${x}`;
        }
        case 'is_open':
          return `${x} is open`;
        case 'is_closed':
          return `${x} is closed`;
        case 'is_locked':
          return `${x} is locked`;
        case 'is_unlocked':
          return `${x} is unlocked`;
      }
    }
  }
}

/** The question a literal probe puts to its agent: what a partner thinks or knows, and the JSON answer wanted. */
export function probeQuestion(p: Omit<LiteralProbe, 'question'>, subjectIsAgent: boolean): string {
  const about = p.about;
  const notTold = `If ${about} has neither seen it nor been told, answer "unknown".`;
  switch (p.kind) {
    case 'state':
      return `What state does ${about} think ${p.subject} is in: open or closed? ${notTold}\nAnswer in JSON: {"answer": "open" | "closed" | "unknown"}`;
    case 'location': {
      if (subjectIsAgent) {
        const x = who(p.subject, p.asked);
        return `Which room does ${about} think ${x.s} ${x.be} in? ${notTold}\nAnswer in JSON: {"answer": "<room>" | "unknown"}`;
      }
      return `Where does ${about} think ${p.subject} is? Name the furniture it is on or inside, or the agent holding it. ${notTold}\nAnswer in JSON: {"answer": "<furniture or agent>" | "unknown"}`;
    }
    case 'fact':
      return `Does ${about} think that ${sayFormula(p.formula.arg, p.asked)}? Answer "yes" if ${about} thinks so, "no" if ${about} thinks not, "unknown" if ${about} has no belief either way.\nAnswer in JSON: {"answer": "yes" | "no" | "unknown"}`;
    case 'knows':
      return `Does ${about} know that ${sayFormula(p.formula.arg, p.asked)}?\nAnswer in JSON: {"answer": "yes" | "no"}`;
  }
}
