// The three estimators calibrateIrt can run, as option presets (calibrate.ts has the method):
//   penalised (the default): normal priors on log a and b whose centres float to the items'
//     means, and the items rescaled after each M-step so that the panel's posterior abilities
//     have mean 0 and SD 1. It maximises no single posterior: it is a penalised marginal
//     likelihood estimate whose scale is the panel's. Chosen because with many more items than
//     models a fixed-centre prior, not the data, sets the latent scale (see calibrate.ts).
//   map: the plain Bock-Aitkin EM to the exact marginal MAP under the fixed priors (centres at
//     their given means, no rescaling). Slower to converge when items outnumber models.
//   ml: no priors on a and b; with the rescaling this is the marginal maximum likelihood (the
//     rescaling only speeds the EM along the scale ridge). An item everyone answered alike has
//     no finite ML difficulty, and its parameters run until the iteration limit.

import type { IrtCalibrationOptions } from './calibrate.js';

/** The estimators of calibrateIrt (see irtEstimatorOptions). */
export type IrtEstimator = 'penalised' | 'map' | 'ml';

/** Every estimator's name, for option parsing. */
export const IRT_ESTIMATORS: readonly IrtEstimator[] = ['penalised', 'map', 'ml'];

/**
 * The calibration options that select an estimator: penalised (floating prior centres, the
 * panel's scale; the default), map (plain EM to the exact marginal MAP under fixed priors) or ml
 * (no priors on a and b: the marginal maximum likelihood). A 3PL's Beta prior on c is kept.
 */
export function irtEstimatorOptions(estimator: IrtEstimator): Pick<IrtCalibrationOptions, 'floatPriors' | 'parameterExpansion' | 'priors'> {
  if (estimator === 'penalised') return { floatPriors: true, parameterExpansion: true };
  if (estimator === 'map') return { floatPriors: false, parameterExpansion: false };
  if (estimator === 'ml') return { floatPriors: false, parameterExpansion: true, priors: { logA: null, b: null } };
  throw new Error(`IRT estimator must be ${IRT_ESTIMATORS.join(', ')}, not "${estimator}"`);
}
