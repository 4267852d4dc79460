# The peer that bench/audit.mjs times against mindscope on the same matrices: a vectorised
# NumPy/SciPy implementation of the audit's stages 1-3 plus PCA (bootstrap resamples as count
# matrices times the response matrix through BLAS, tau-b for all resamples at once). Not part
# of mindscope; interpreter start-up counts in the time bench/audit.mjs reports.
import csv
import sys
import time

import numpy as np

t0 = time.perf_counter()
mats = []
for path in sys.argv[1:]:
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    body = rows[1:]
    X = np.array([r[4:] for r in body], dtype=float).T  # models x items
    mats.append((path, X, np.array([r[2] for r in body])))
t_load = time.perf_counter() - t0
rng = np.random.default_rng(0)
cats = ["belief", "desire", "emotion", "intention", "knowledge"]
M = mats[0][1].shape[0]
I, J = np.triu_indices(M, 1)


def tau_b(a, b):
    """Kendall tau-b of the columns of a (models x reps) against those of b."""
    dx = np.sign(a[I] - a[J])
    dy = np.sign(b[I] - b[J])
    n0 = len(I)
    den = np.sqrt((n0 - (dx == 0).sum(0)) * (n0 - (dy == 0).sum(0)))
    with np.errstate(invalid="ignore", divide="ignore"):
        return (dx * dy).sum(0) / den


def boot_acc(X, reps):
    n = X.shape[1]
    idx = rng.integers(0, n, (reps, n)) + np.arange(reps)[:, None] * n
    counts = np.bincount(idx.ravel(), minlength=reps * n).reshape(reps, n)
    return X @ counts.T / n  # models x reps


def stage1(mats):
    out = []
    for i in range(len(mats)):
        for j in range(i + 1, len(mats)):
            for c in cats:
                A = mats[i][1][:, mats[i][2] == c]
                B = mats[j][1][:, mats[j][2] == c]
                tau = tau_b(A.mean(1)[:, None], B.mean(1)[:, None])[0]
                reps = tau_b(boot_acc(A, 1000), boot_acc(B, 1000))
                lo, hi = np.nanpercentile(reps, [2.5, 97.5])
                out.append((tau, lo, hi))
    return out


def point_biserial(X):
    rest = X.sum(axis=1, keepdims=True) - X
    Xc = X - X.mean(0)
    Rc = rest - rest.mean(0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (Xc * Rc).sum(0) / np.sqrt((Xc**2).sum(0) * (Rc**2).sum(0))


def corr_with(X, a):
    Xc = X - X.mean(0)
    ac = a - a.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        return (Xc * ac[:, None]).sum(0) / np.sqrt((Xc**2).sum(0) * (ac**2).sum())


t1 = time.perf_counter()
s1 = stage1(mats)
t_s1 = time.perf_counter() - t1

t2 = time.perf_counter()
filtered = []
for path, X, cat in mats:
    keep = np.nan_to_num(point_biserial(X), nan=-1) >= 0.15
    filtered.append((path, X[:, keep], cat[keep]))
s1f = stage1(filtered)
t_s2 = time.perf_counter() - t2

t3 = time.perf_counter()
for i in range(len(mats)):
    for j in range(i + 1, len(mats)):
        for c in cats:
            A = mats[i][1][:, mats[i][2] == c]
            B = mats[j][1][:, mats[j][2] == c]
            P = np.hstack([A, B])
            side = np.r_[np.zeros(A.shape[1]), np.ones(B.shape[1])]
            deltas = []
            for s in range(10):
                fold = np.empty(P.shape[1], dtype=int)
                for sd in (0, 1):
                    idx = rng.permutation(np.where(side == sd)[0])
                    fold[idx] = np.arange(len(idx)) % 5
                for f in range(5):
                    anchor = P[:, fold != f].mean(1)
                    T = P[:, fold == f]
                    ts = side[fold == f]
                    keep = np.nan_to_num(corr_with(T, anchor), nan=-1) >= 0.15
                    cols = np.stack([T[:, ts == 0].mean(1), T[:, ts == 1].mean(1), T[:, (ts == 0) & keep].mean(1), T[:, (ts == 1) & keep].mean(1)], 1)
                    t = tau_b(cols[:, [0, 2]], cols[:, [1, 3]])
                    deltas.append(t[1] - t[0])
            deltas = np.array(deltas)
            boot = deltas[rng.integers(0, len(deltas), (1000, len(deltas)))].mean(1)
            lo, hi = np.percentile(boot, [2.5, 97.5])
t_s3 = time.perf_counter() - t3

t4 = time.perf_counter()
for _, X, _ in mats + [("pooled", np.hstack([m[1] for m in mats]), None)]:
    X = X[:, X.std(0) > 0]
    Z = (X - X.mean(0)) / X.std(0, ddof=1)
    ev = np.linalg.eigvalsh(Z @ Z.T / (Z.shape[0] - 1))[::-1]
    share = ev / X.shape[1]
t_pca = time.perf_counter() - t4
print(f"load {t_load:.2f} s, stage 1 {t_s1:.2f} s, stage 2 (filter and stage 1 on kept items) {t_s2:.2f} s, stage 3 {t_s3:.2f} s, PCA {t_pca:.2f} s")
print(f"stage 1 mean tau {np.mean([t for t, _, _ in s1]):.3f}, filtered {np.nanmean([t for t, _, _ in s1f]):.3f}")
