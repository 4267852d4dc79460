// Computerised adaptive testing on a calibrated item bank.
//   Selection: the item with the largest Fisher information at the current EAP ability.
//   Content balancing (Kingsbury and Zara 1989): when items carry categories with target
//     shares, the next item comes from the category furthest below its share, that is, with
//     the largest target * (given + 1) - given in that category.
//   Exposure control: 'randomesque' (Kingsbury and Zara) draws uniformly among the
//     `candidates` most informative items; 'sympson-hetter' walks down the information order
//     and gives item i with probability K_i (else skips it for this test), with K from
//     calibrateSympsonHetter.
//   Stopping: the posterior SD reaches `targetSe` (after at least `minItems`), or `maxItems`
//     were given, or the bank is used up.
// A runner drives it in waves: next() may be called several times before the answers come
// back (each call marks its item pending and picks among the rest at the current estimate);
// record() adds an answer and updates the estimate. Every random choice comes from the seed.

import { createRng, type Rng } from '../../core/random.js';
import { abilityPosterior, type AbilityPosterior } from './ability.js';
import { type IrtItems, irtItemInformation } from './irt-model.js';

export type ExposureControl =
  | { method: 'none' }
  | { method: 'randomesque'; candidates: number }
  | { method: 'sympson-hetter'; rates: ArrayLike<number> };

export interface AdaptiveTestOptions {
  /** Stop when the posterior SD of ability is at most this (default 0.3). */
  targetSe?: number;
  /** Never give more than this many items (default: the bank size). */
  maxItems?: number;
  /** Never stop before this many answers (default 5). */
  minItems?: number;
  /** Default randomesque among 5. */
  exposure?: ExposureControl;
  /** Category (0..K-1) of each item, with the target share of each category (summing to 1). */
  content?: { categories: ArrayLike<number>; targets: ArrayLike<number> };
  /** Items that may be given (default all). */
  eligible?: ArrayLike<number>;
  prior?: { mean: number; sd: number };
  seed: number;
}

export type StopReason = 'target-se' | 'max-items' | 'bank-exhausted' | null;

export interface AdaptiveState {
  theta: number;
  se: number;
  answered: number;
  pending: number;
  stopReason: StopReason;
}

/** A computerised adaptive test: picks each next item by information at the current ability (with exposure control and content balancing) until a target SE or an item budget. */
export class AdaptiveTest {
  readonly #items: IrtItems;
  readonly #opts: AdaptiveTestOptions;
  readonly #rng: Rng;
  readonly #available: Uint8Array;
  readonly #answers: Float64Array;
  readonly #order: number[] = [];
  readonly #passed: number[] = [];
  readonly #pending = new Set<number>();
  readonly #categoryCounts: Float64Array;
  #posterior: AbilityPosterior;
  #answeredIdx: number[] = [];

  constructor(items: IrtItems, opts: AdaptiveTestOptions) {
    this.#items = items;
    this.#opts = opts;
    this.#rng = createRng(`adaptive:${opts.seed}`);
    const J = items.a.length;
    this.#available = new Uint8Array(J);
    if (opts.eligible) for (let k = 0; k < opts.eligible.length; k++) this.#available[opts.eligible[k]!] = 1;
    else this.#available.fill(1);
    this.#answers = new Float64Array(J).fill(Number.NaN);
    const K = opts.content ? opts.content.targets.length : 0;
    if (opts.content && opts.content.categories.length !== J)
      throw new Error(`adaptive test: ${opts.content.categories.length} categories for ${J} items`);
    this.#categoryCounts = new Float64Array(K);
    if (opts.exposure?.method === 'sympson-hetter' && opts.exposure.rates.length !== J)
      throw new Error(`adaptive test: ${opts.exposure.rates.length} Sympson-Hetter rates for ${J} items`);
    this.#posterior = abilityPosterior(items, this.#answers, { prior: opts.prior, indices: [] });
  }

  /** Current ability estimate, its SD and why the test stopped (null while running). */
  state(): AdaptiveState {
    return {
      theta: this.#posterior.mean,
      se: this.#posterior.sd,
      answered: this.#answeredIdx.length,
      pending: this.#pending.size,
      stopReason: this.#stopReason(),
    };
  }

  /** The ability posterior given the answers so far. */
  posterior(): AbilityPosterior {
    return this.#posterior;
  }

  /** Items given, in order (answered or pending). */
  administered(): number[] {
    return this.#order.slice();
  }

  /** Items that Sympson-Hetter selected and then skipped. */
  passedOver(): number[] {
    return this.#passed.slice();
  }

  /** The answer vector so far (NaN for items not answered). */
  answers(): Float64Array {
    return this.#answers.slice();
  }

  #stopReason(): StopReason {
    const answered = this.#answeredIdx.length;
    const given = answered + this.#pending.size;
    const max = this.#opts.maxItems ?? this.#items.a.length;
    if (answered >= (this.#opts.minItems ?? 5) && this.#posterior.sd <= (this.#opts.targetSe ?? 0.3)) return 'target-se';
    let any = false;
    for (let i = 0; i < this.#available.length && !any; i++) any = this.#available[i] === 1;
    if (!any) return 'bank-exhausted';
    if (given >= max) return 'max-items';
    return null;
  }

  /** The next item to give, or null when the test has stopped. Marks the item pending. */
  next(): number | null {
    if (this.#stopReason() !== null) return null;
    const theta = this.#posterior.mean;
    const J = this.#items.a.length;
    let category = -1;
    const content = this.#opts.content;
    if (content) {
      const given = this.#order.length;
      let best = Number.NEGATIVE_INFINITY;
      for (let k = 0; k < content.targets.length; k++) {
        let has = false;
        for (let i = 0; i < J && !has; i++) has = this.#available[i] === 1 && content.categories[i] === k;
        if (!has) continue;
        const deficit = content.targets[k]! * (given + 1) - this.#categoryCounts[k]!;
        if (deficit > best) {
          best = deficit;
          category = k;
        }
      }
    }
    const candidates: Array<{ i: number; info: number }> = [];
    for (let i = 0; i < J; i++) {
      if (this.#available[i] !== 1) continue;
      if (category >= 0 && content!.categories[i] !== category) continue;
      candidates.push({ i, info: irtItemInformation(this.#items.a[i]!, this.#items.b[i]!, this.#items.c[i]!, theta) });
    }
    if (candidates.length === 0) return null;
    candidates.sort((x, y) => y.info - x.info || x.i - y.i);
    const exposure = this.#opts.exposure ?? { method: 'randomesque', candidates: 5 };
    let chosen = candidates[0]!.i;
    if (exposure.method === 'randomesque') {
      chosen = candidates[this.#rng.int(Math.min(exposure.candidates, candidates.length))]!.i;
    } else if (exposure.method === 'sympson-hetter') {
      chosen = -1;
      for (const c of candidates) {
        if (this.#rng.next() < exposure.rates[c.i]!) {
          chosen = c.i;
          break;
        }
        this.#available[c.i] = 0; // passed over: not offered again in this test
        this.#passed.push(c.i);
      }
      if (chosen < 0) chosen = candidates[candidates.length - 1]!.i;
    }
    this.#available[chosen] = 0;
    this.#pending.add(chosen);
    this.#order.push(chosen);
    if (content) this.#categoryCounts[content.categories[chosen]!]!++;
    return chosen;
  }

  /** Record the answer (0..1) to a pending item and update the ability estimate. */
  record(item: number, correct: number): void {
    if (!this.#pending.has(item)) throw new Error(`adaptive test: item ${item} was not given (or was answered already)`);
    if (!(correct >= 0 && correct <= 1)) throw new Error(`adaptive test: answer ${correct} to item ${item} is not in [0, 1]`);
    this.#pending.delete(item);
    this.#answers[item] = correct;
    this.#answeredIdx.push(item);
    this.#posterior = abilityPosterior(this.#items, this.#answers, { prior: this.#opts.prior, indices: this.#answeredIdx });
  }
}

/**
 * Sympson-Hetter exposure parameters by simulation (Sympson and Hetter 1985): run `simulees`
 * adaptive tests on abilities drawn from N(0, 1) with answers drawn from the model, set
 * K_i = min(1, rMax / P(selected_i)), and repeat `rounds` times. Returns K and the largest
 * exposure rate of the last round.
 */
export function calibrateSympsonHetter(
  items: IrtItems,
  opts: Omit<AdaptiveTestOptions, 'exposure' | 'seed'> & { rMax: number; simulees?: number; rounds?: number; seed: number },
): { rates: Float64Array; maxExposure: number } {
  const J = items.a.length;
  const rates = new Float64Array(J).fill(1);
  const rng = createRng(`sympson-hetter:${opts.seed}`);
  const sims = opts.simulees ?? 500;
  let maxExposure = 0;
  for (let round = 0; round < (opts.rounds ?? 8); round++) {
    const selected = new Float64Array(J);
    const given = new Float64Array(J);
    for (let s = 0; s < sims; s++) {
      const u = 1 - rng.next();
      const theta = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
      const test = new AdaptiveTest(items, { ...opts, exposure: { method: 'sympson-hetter', rates }, seed: rng.int(2 ** 31) });
      for (let item = test.next(); item !== null; item = test.next()) {
        given[item]!++;
        const p = items.c[item]! + (1 - items.c[item]!) / (1 + Math.exp(-items.a[item]! * (theta - items.b[item]!)));
        test.record(item, rng.next() < p ? 1 : 0);
      }
      for (const i of test.administered()) selected[i]!++;
      for (const i of test.passedOver()) selected[i]!++;
    }
    maxExposure = 0;
    for (let i = 0; i < J; i++) {
      const pGiven = given[i]! / sims;
      if (pGiven > maxExposure) maxExposure = pGiven;
      const pSel = selected[i]! / sims;
      rates[i] = pSel > opts.rMax ? opts.rMax / pSel : 1;
    }
  }
  return { rates, maxExposure };
}
