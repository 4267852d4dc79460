"""Peer for bench/irt.mjs: the same 2PL estimator written as vectorised NumPy (dense BLAS).

Bock-Aitkin EM over 41 equally spaced nodes on [-6, 6] with N(0, 1) weights; M-step: Fisher
scoring in (log a, b) for all items at once, with lognormal(., 0.5^2) and normal(., 2^2) priors
whose centres float to the items' means; after each M-step the items are rescaled so that the
panel's posterior ability mean and SD are 0 and 1. Stops when no parameter moves by more than
the tolerance. Prints JSON: iterations, seconds and cpu (EM only, reading excluded), a, b.
bench/irt.mjs runs it with one BLAS thread, so that both sides use one core.

usage: python3 bench/irt_peer.py MATRIX.csv TOLERANCE
"""

import json
import sys
import time

import numpy as np


def read_matrix(path):
    with open(path) as f:
        f.readline()
        rows = [line.rstrip("\n").split(",")[4:] for line in f]
    return np.array([[float(v) if v != "" else np.nan for v in r] for r in rows])  # items x persons


def main():
    path, tol = sys.argv[1], float(sys.argv[2])
    Y = read_matrix(path)
    if np.isnan(Y).any():
        raise SystemExit("the peer handles complete matrices only")
    J, N = Y.shape
    t0 = time.perf_counter()
    c0 = time.process_time()
    nodes = np.linspace(-6, 6, 41)
    logw = -0.5 * nodes**2
    logw -= np.log(np.exp(logw).sum())
    p = (Y.sum(1) + 0.5) / (N + 1)
    p = np.clip(p, 0.02, 0.98)
    a = np.ones(J)
    b = -np.log(p / (1 - p)) * 1.16
    Yt = Y.T.copy()
    sd_la, sd_b = 0.5, 2.0
    it = 0
    for it in range(1, 501):
        a_old, b_old = a.copy(), b.copy()
        Z = a[:, None] * (nodes[None, :] - b[:, None])  # J x Q
        log1m = -np.logaddexp(0, Z)
        LL = Yt @ Z + log1m.sum(0)[None, :] + logw[None, :]  # N x Q: log P - log(1 - P) = Z
        LL -= LL.max(1, keepdims=True)
        post = np.exp(LL)
        post /= post.sum(1, keepdims=True)
        r = Y @ post  # J x Q expected correct
        n = post.sum(0)[None, :]  # 1 x Q expected observed (complete data)
        mu = (post * nodes).sum() / N
        sd = np.sqrt((post * nodes**2).sum() / N - mu**2)
        m_la, m_b = np.log(a).mean(), b.mean()
        la = np.log(a)
        for _ in range(3):
            aa = np.exp(la)
            Z = aa[:, None] * (nodes[None, :] - b[:, None])
            P = 1 / (1 + np.exp(-Z))
            e = r - n * P
            w = n * P * (1 - P)
            g1 = (e * Z).sum(1) - (la - m_la) / sd_la**2
            g2 = -aa * e.sum(1) - (b - m_b) / sd_b**2
            i11 = (w * Z * Z).sum(1) + 1 / sd_la**2
            i12 = -aa * (w * Z).sum(1)
            i22 = aa**2 * w.sum(1) + 1 / sd_b**2
            det = i11 * i22 - i12**2
            d1 = np.clip((i22 * g1 - i12 * g2) / det, -1, 1)
            d2 = np.clip((-i12 * g1 + i11 * g2) / det, -2, 2)
            la, b = la + d1, b + d2
        a = np.exp(la) * sd
        b = (b - mu) / sd
        if max(np.abs(a - a_old).max(), np.abs(b - b_old).max()) < tol:
            break
    seconds = time.perf_counter() - t0
    cpu = time.process_time() - c0
    print(json.dumps({"iterations": it, "seconds": seconds, "cpu": cpu, "a": a.tolist(), "b": b.tolist()}))


main()
