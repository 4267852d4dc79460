// The goal language of embodied tasks: PDDL-style s-expressions with and, or, not, physical
// predicates and the epistemic operators (K agent phi) (knows) and (B agent phi) (believes),
// nestable. K-depth counts epistemic nesting (K and B add one; and, or, not take the maximum).

import { InputError } from '../../../core/errors.js';

export const PREDICATES = {
  is_on_top: ['object', 'furniture'],
  is_inside: ['object', 'furniture'],
  is_in_room: ['entity', 'room'],
  is_open: ['furniture'],
  is_closed: ['furniture'],
  is_locked: ['furniture'],
  is_unlocked: ['furniture'],
  is_held_by: ['object', 'agent'],
  agent_in_room: ['agent', 'room'],
} as const;

export type PredicateName = keyof typeof PREDICATES;

export type Formula =
  | { op: 'and' | 'or'; args: Formula[] }
  | { op: 'not'; arg: Formula }
  | { op: 'K' | 'B'; agent: string; arg: Formula }
  | { op: 'pred'; name: PredicateName; args: string[] };

type Sexp = string | Sexp[];

function tokenize(text: string): string[] {
  return text
    .replace(/;[^\n]*/g, ' ')
    .replace(/\(/g, ' ( ')
    .replace(/\)/g, ' ) ')
    .split(/\s+/)
    .filter(Boolean);
}

/** Parse one s-expression (or several, returned in order) from PDDL text. */
export function parseSexps(text: string, where = 'goal'): Sexp[] {
  const tokens = tokenize(text);
  let i = 0;
  const read = (): Sexp => {
    const t = tokens[i++];
    if (t === undefined) throw new InputError('unexpected end of expression (unbalanced parentheses)', where);
    if (t === ')') throw new InputError('unexpected ")"', where);
    if (t !== '(') return t;
    const list: Sexp[] = [];
    while (tokens[i] !== ')') {
      if (i >= tokens.length) throw new InputError('missing ")" (unbalanced parentheses)', where);
      list.push(read());
    }
    i++;
    return list;
  };
  const out: Sexp[] = [];
  while (i < tokens.length) out.push(read());
  return out;
}

function toFormula(s: Sexp, where: string): Formula {
  if (typeof s === 'string' || s.length === 0)
    throw new InputError(`expected a (predicate ...) or (and ...), got ${JSON.stringify(s)}`, where);
  const [head, ...rest] = s;
  if (typeof head !== 'string') throw new InputError('an expression must start with an operator or predicate name', where);
  const h = head.toLowerCase();
  if (h === 'and' || h === 'or') {
    if (rest.length === 0) throw new InputError(`(${h}) needs at least one argument`, where);
    return { op: h, args: rest.map((r) => toFormula(r, where)) };
  }
  if (h === 'not') {
    if (rest.length !== 1) throw new InputError('(not ...) takes exactly one argument', where);
    return { op: 'not', arg: toFormula(rest[0]!, where) };
  }
  if (head === 'K' || head === 'B' || h === 'k' || h === 'b') {
    if (rest.length !== 2 || typeof rest[0] !== 'string') throw new InputError(`(${head} agent phi) takes an agent and one formula`, where);
    return { op: head.toUpperCase() as 'K' | 'B', agent: rest[0], arg: toFormula(rest[1]!, where) };
  }
  if (!(h in PREDICATES)) throw new InputError(`unknown predicate "${head}"; known: ${Object.keys(PREDICATES).join(', ')}`, where);
  const name = h as PredicateName;
  if (rest.some((r) => typeof r !== 'string')) throw new InputError(`(${head} ...) takes entity names only`, where);
  if (rest.length !== PREDICATES[name].length)
    throw new InputError(`(${head}) takes ${PREDICATES[name].length} argument(s), got ${rest.length}`, where);
  return { op: 'pred', name, args: rest as string[] };
}

/** Parse a goal s-expression into a formula; errors name the place. */
export function parseGoal(text: string, where = 'goal'): Formula {
  const sexps = parseSexps(text, where);
  if (sexps.length !== 1) throw new InputError(`expected one goal expression, found ${sexps.length}`, where);
  return toFormula(sexps[0]!, where);
}

/** A formula from an already parsed s-expression. */
export function formulaFromSexp(s: Sexp, where: string): Formula {
  return toFormula(s, where);
}

/** A formula as PDDL-style text. */
export function formatFormula(f: Formula): string {
  switch (f.op) {
    case 'and':
    case 'or':
      return `(${f.op} ${f.args.map(formatFormula).join(' ')})`;
    case 'not':
      return `(not ${formatFormula(f.arg)})`;
    case 'K':
    case 'B':
      return `(${f.op} ${f.agent} ${formatFormula(f.arg)})`;
    case 'pred':
      return `(${f.name} ${f.args.join(' ')})`;
  }
}

/** The epistemic nesting depth of a formula (K and B add one). */
export function kDepth(f: Formula): number {
  switch (f.op) {
    case 'and':
    case 'or':
      return Math.max(...f.args.map(kDepth));
    case 'not':
      return kDepth(f.arg);
    case 'K':
    case 'B':
      return 1 + kDepth(f.arg);
    case 'pred':
      return 0;
  }
}

/** The goal with every epistemic operator replaced by its argument: what functional success checks. */
export function stripEpistemic(f: Formula): Formula {
  switch (f.op) {
    case 'and':
    case 'or':
      return { op: f.op, args: f.args.map(stripEpistemic) };
    case 'not':
      return { op: 'not', arg: stripEpistemic(f.arg) };
    case 'K':
    case 'B':
      return stripEpistemic(f.arg);
    case 'pred':
      return f;
  }
}

/** Every epistemic sub-formula, outermost first (the literal probes). */
export function epistemicNodes(f: Formula): Array<Extract<Formula, { op: 'K' | 'B' }>> {
  switch (f.op) {
    case 'and':
    case 'or':
      return f.args.flatMap(epistemicNodes);
    case 'not':
      return epistemicNodes(f.arg);
    case 'K':
    case 'B':
      return [f, ...epistemicNodes(f.arg)];
    case 'pred':
      return [];
  }
}

/** Every physical predicate of a formula, in order. */
export function predicates(f: Formula): Array<Extract<Formula, { op: 'pred' }>> {
  switch (f.op) {
    case 'and':
    case 'or':
      return f.args.flatMap(predicates);
    case 'not':
    case 'K':
    case 'B':
      return predicates(f.arg);
    case 'pred':
      return [f];
  }
}

/** Agents named by epistemic operators. */
export function epistemicAgents(f: Formula): string[] {
  return [...new Set(epistemicNodes(f).map((n) => n.agent))];
}

/** Evaluate with a predicate oracle and an epistemic oracle. */
export function evaluateFormula(
  f: Formula,
  holds: (p: Extract<Formula, { op: 'pred' }>) => boolean,
  knows: (agent: string, phi: Formula) => boolean,
): boolean {
  switch (f.op) {
    case 'and':
      return f.args.every((a) => evaluateFormula(a, holds, knows));
    case 'or':
      return f.args.some((a) => evaluateFormula(a, holds, knows));
    case 'not':
      return !evaluateFormula(f.arg, holds, knows);
    case 'K':
    case 'B':
      return evaluateFormula(f.arg, holds, knows) && knows(f.agent, f.arg);
    case 'pred':
      return holds(f);
  }
}
