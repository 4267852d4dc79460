// Quadrature for the latent ability: a fixed grid of equally spaced nodes with standard normal
// weights (the rectangular rule Bock and Aitkin used and mirt uses for EM), normalised to sum
// to one. Equally spaced nodes keep the expected counts of all items on one grid.

export interface Quadrature {
  nodes: Float64Array;
  /** Prior weights at the nodes, summing to 1. */
  weights: Float64Array;
}

/** `points` equally spaced nodes on [-range, range] with N(mean, sd^2) weights. */
export function normalQuadrature(points = 41, range = 6, mean = 0, sd = 1): Quadrature {
  if (!Number.isInteger(points) || points < 3) throw new Error(`quadrature: need at least 3 points, got ${points}`);
  const nodes = new Float64Array(points);
  const weights = new Float64Array(points);
  let total = 0;
  for (let q = 0; q < points; q++) {
    const x = -range + (2 * range * q) / (points - 1);
    nodes[q] = x;
    const z = (x - mean) / sd;
    weights[q] = Math.exp(-0.5 * z * z);
    total += weights[q]!;
  }
  for (let q = 0; q < points; q++) weights[q]! /= total;
  return { nodes, weights };
}
