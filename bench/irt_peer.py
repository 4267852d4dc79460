"""Peer for bench/irt.mjs: the same estimators written as vectorised NumPy (dense BLAS).

2PL and 3PL (c fixed): Bock-Aitkin EM over 41 equally spaced nodes on [-6, 6] with N(0, 1)
weights; E-step as two dense matrix products over the grid (N x J by J x Q, J x N by N x Q);
M-step: Fisher-scoring steps in (log a, b) for all items at once (3 for the 2PL, up to 25 for the
3PL), each halved until the item's objective does not fall, an item stopping once it moves by
less than 1e-7, with lognormal(., 0.5^2)
and normal(., 2^2) priors whose centres float to the items' means; after each M-step the items
are rescaled so that the panel's posterior ability mean and SD are 0 and 1.
Bifactor 2PL: the Gibbons-Hedeker EM over a 21 x 15 grid on [-5, 5]^2 with the priors and
rescaling of src/stats/irt/bifactor.ts.
Stops when no parameter moves by more than the tolerance. Prints JSON: iterations, seconds and
cpu (EM only, reading excluded), the estimates. bench/irt.mjs runs it with one BLAS thread, so
that both sides use one core.

usage: python3 bench/irt_peer.py RESPONSES.u8 N J TOLERANCE [--model 2pl|3pl|bifactor]
         [--guessing C] [--categories CATEGORIES.u8]
RESPONSES.u8: N x J bytes, person-major, 0 or 1 (255: missing, not handled here).
"""

import json
import sys
import time

import numpy as np


def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def unidimensional(Y, tol, guessing):
    J, N = Y.shape
    nodes = np.linspace(-6, 6, 41)
    logw = -0.5 * nodes**2
    logw -= np.log(np.exp(logw).sum())
    c = guessing
    p = (Y.sum(1) + 0.5) / (N + 1)
    p = np.clip((p - c) / (1 - c), 0.02, 0.98)
    a = np.ones(J)
    b = -np.log(p / (1 - p)) * 1.16
    Yt = Y.T.copy()
    sd_la, sd_b = 0.5, 2.0
    lc = np.log1p(-c)
    it = 0
    for it in range(1, 501):
        a_old, b_old = a.copy(), b.copy()
        Z = a[:, None] * (nodes[None, :] - b[:, None])  # J x Q
        log1m = lc - np.logaddexp(0, Z)
        # log P - log(1 - P): Z itself for the 2PL, log(c + e^Z) - log(1 - c) with a floor.
        D = Z if c == 0 else np.logaddexp(np.log(c), Z) - lc
        LL = Yt @ D + log1m.sum(0)[None, :] + logw[None, :]  # N x Q
        LL -= LL.max(1, keepdims=True)
        post = np.exp(LL)
        post /= post.sum(1, keepdims=True)
        r = Y @ post  # J x Q expected correct
        n = post.sum(0)[None, :]  # 1 x Q expected observed (complete data)
        mu = (post * nodes).sum() / N
        sd = np.sqrt((post * nodes**2).sum() / N - mu**2)
        m_la, m_b = np.log(a).mean(), b.mean()
        la = np.log(a)
        # Fisher-scoring steps with step halving: 3 for the 2PL, for the 3PL up to 25; a step is
        # halved (up to 12 times) until the item's objective does not fall, an item whose step
        # finds no such point stops, and an item stops once it moves by less than 1e-7 (as
        # src/stats/irt/item-step.ts does).
        def objective(la, b, rr):
            """Each item's expected complete-data log likelihood plus its log priors (rr: its r rows)."""
            Z = np.exp(la)[:, None] * (nodes[None, :] - b[:, None])
            log_p = -np.logaddexp(0, -Z) if c == 0 else np.log(c + (1 - c) / (1 + np.exp(-Z)))
            ll = (rr * log_p + (n - rr) * (lc - np.logaddexp(0, Z))).sum(1)
            return ll - (la - m_la) ** 2 / (2 * sd_la**2) - (b - m_b) ** 2 / (2 * sd_b**2)

        obj = objective(la, b, r)
        moving = np.ones(J, dtype=bool)
        for _ in range(3 if c == 0 else 25):
            aa = np.exp(la)
            Z = aa[:, None] * (nodes[None, :] - b[:, None])
            ps = 1 / (1 + np.exp(-Z))
            P = c + (1 - c) * ps
            e = (r - n * P) * ps / P  # score in z
            w = n * (1 - c) * ps * ps * (1 - ps) / P  # information in z
            g1 = (e * Z).sum(1) - (la - m_la) / sd_la**2
            g2 = -aa * e.sum(1) - (b - m_b) / sd_b**2
            i11 = (w * Z * Z).sum(1) + 1 / sd_la**2
            i12 = -aa * (w * Z).sum(1)
            i22 = aa**2 * w.sum(1) + 1 / sd_b**2
            det = i11 * i22 - i12**2
            d1 = np.clip((i22 * g1 - i12 * g2) / det, -1, 1)
            d2 = np.clip((-i12 * g1 + i11 * g2) / det, -2, 2)
            la_new, b_new = la.copy(), b.copy()
            accepted = np.zeros(J, dtype=bool)
            trying = np.flatnonzero(moving)
            t = 1.0
            for _ in range(12):
                cand_la, cand_b = la[trying] + t * d1[trying], b[trying] + t * d2[trying]
                cand = objective(cand_la, cand_b, r[trying])
                ok = (cand >= obj[trying] - 1e-12 * np.abs(obj[trying])) | ~np.isfinite(obj[trying])
                done = trying[ok]
                la_new[done], b_new[done], obj[done] = cand_la[ok], cand_b[ok], cand[ok]
                accepted[done] = True
                trying = trying[~ok]
                if trying.size == 0:
                    break
                t /= 2
            moving &= accepted & (np.maximum(np.abs(np.exp(la_new) - aa), np.abs(b_new - b)) >= 1e-7)
            la, b = la_new, b_new
            if not moving.any():
                break
        a = np.exp(la) * sd
        b = (b - mu) / sd
        if max(np.abs(a - a_old).max(), np.abs(b - b_old).max()) < tol:
            break
    return {"iterations": it, "a": a.tolist(), "b": b.tolist()}


def grid(points, rng):
    nodes = np.linspace(-rng, rng, points)
    w = np.exp(-0.5 * nodes**2)
    return nodes, np.log(w / w.sum())


def bifactor(Y, tol, cat):
    J, N = Y.shape
    K = int(cat.max()) + 1
    xg, lwg = grid(21, 5)
    xs, lws = grid(15, 5)
    Qg, Qs = len(xg), len(xs)
    p = np.clip((Y.sum(1) + 0.5) / (N + 1), 0.02, 0.98)
    aG = np.ones(J)
    aS = np.full(J, 0.5)
    d = np.log(p / (1 - p)) * 1.3
    pri = {"G": [0.0, 0.5], "S": [np.log(0.5), 0.5], "d": [0.0, 3.0]}
    Yt = Y.T.copy()
    it = 0
    for it in range(1, 501):
        old = np.concatenate([aG, aS, d])
        Z = aG[:, None, None] * xg[None, :, None] + aS[:, None, None] * xs[None, None, :] + d[:, None, None]  # J x Qg x Qs
        l1m = -np.logaddexp(0, Z)
        # Per person and category: log L_k(g, s) = sum over the category's items.
        LLk = np.empty((N, K, Qg, Qs))
        for k in range(K):
            sel = cat == k
            LLk[:, k] = (Yt[:, sel] @ Z[sel].reshape(-1, Qg * Qs) + l1m[sel].sum(0).reshape(1, -1)).reshape(N, Qg, Qs)
        Lk = LLk + lws[None, None, None, :]
        mk = Lk.max(3, keepdims=True)
        ek = np.exp(Lk - mk)
        Sk = ek.sum(3)  # N x K x Qg
        logIk = np.log(Sk) + mk[..., 0]
        lg = logIk.sum(1) + lwg[None, :]  # N x Qg
        lg -= lg.max(1, keepdims=True)
        pg = np.exp(lg)
        pg /= pg.sum(1, keepdims=True)
        joint = pg[:, None, :, None] * ek / Sk[..., None]  # N x K x Qg x Qs
        r = np.empty((J, Qg, Qs))
        for k in range(K):
            sel = cat == k
            r[sel] = (Y[sel] @ joint[:, k].reshape(N, -1)).reshape(-1, Qg, Qs)
        nk = joint.sum(0)  # K x Qg x Qs
        n = nk[cat]  # J x Qg x Qs
        muG = (pg * xg).sum() / N
        sdG = np.sqrt((pg * xg**2).sum() / N - muG**2)
        ms = joint.sum(2)  # N x K x Qs
        muS = (ms * xs).sum((0, 2)) / N
        sdS = np.sqrt((ms * xs**2).sum((0, 2)) / N - muS**2)
        mG, mS, md = np.log(aG).mean(), np.log(aS).mean(), d.mean()
        x = np.stack([np.log(aG), np.log(aS), d], 1)
        for _ in range(3):
            ag, as_ = np.exp(x[:, 0]), np.exp(x[:, 1])
            Z = ag[:, None, None] * xg[None, :, None] + as_[:, None, None] * xs[None, None, :] + x[:, 2, None, None]
            P = 1 / (1 + np.exp(-Z))
            e = r - n * P
            w = n * P * (1 - P)
            dz = np.stack([ag[:, None, None] * xg[None, :, None] * np.ones_like(Z), as_[:, None, None] * xs[None, None, :] * np.ones_like(Z), np.ones_like(Z)], 1)
            g = (e[:, None] * dz).sum((2, 3))
            H = np.einsum("jgs,jags,jbgs->jab", w, dz, dz)
            g[:, 0] -= (x[:, 0] - mG) / pri["G"][1] ** 2
            g[:, 1] -= (x[:, 1] - mS) / pri["S"][1] ** 2
            g[:, 2] -= (x[:, 2] - md) / pri["d"][1] ** 2
            H[:, 0, 0] += 1 / pri["G"][1] ** 2
            H[:, 1, 1] += 1 / pri["S"][1] ** 2
            H[:, 2, 2] += 1 / pri["d"][1] ** 2
            step = np.linalg.solve(H, g[..., None])[..., 0]
            x = x + np.clip(step, [-1, -1, -3], [1, 1, 3])
        aG, aS, d = np.exp(x[:, 0]), np.exp(x[:, 1]), x[:, 2]
        d = d + aG * muG + aS * muS[cat]
        aG = aG * sdG
        aS = aS * sdS[cat]
        if np.abs(np.concatenate([aG, aS, d]) - old).max() < tol:
            break
    return {"iterations": it, "a": aG.tolist(), "s": aS.tolist(), "b": d.tolist()}


def main():
    path, N, J, tol = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    raw = np.fromfile(path, dtype=np.uint8).reshape(N, J)
    if (raw == 255).any():
        raise SystemExit("the peer handles complete matrices only")
    Y = raw.T.astype(np.float64)  # items x persons
    model = arg("--model", "2pl")
    t0 = time.perf_counter()
    c0 = time.process_time()
    if model == "bifactor":
        out = bifactor(Y, tol, np.fromfile(arg("--categories", ""), dtype=np.uint8).astype(int))
    else:
        out = unidimensional(Y, tol, float(arg("--guessing", "0")) if model == "3pl" else 0.0)
    out["seconds"] = time.perf_counter() - t0
    out["cpu"] = time.process_time() - c0
    print(json.dumps(out))


main()
