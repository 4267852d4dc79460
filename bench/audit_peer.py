# A straightforward NumPy/SciPy implementation of the audit's stages 1-3 plus PCA, the peer
# that bench/audit.mjs times against mindscope on the same matrices. Not part of mindscope.
import sys, time
import numpy as np
import csv
from scipy.stats import kendalltau

t0 = time.perf_counter()
mats = []
for path in sys.argv[1:]:
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    body = rows[1:]
    X = np.array([[float(v) for v in r[4:]] for r in body]).T  # models x items
    mats.append((path, X, np.array([r[2] for r in body])))
t_load = time.perf_counter() - t0
rng = np.random.default_rng(0)
cats = ["belief", "desire", "emotion", "intention", "knowledge"]

def acc(X, idx=None):
    return X.mean(axis=1) if idx is None else X[:, idx].mean(axis=1)

t1 = time.perf_counter()
for i in range(len(mats)):
    for j in range(i + 1, len(mats)):
        for c in cats:
            A = mats[i][1][:, mats[i][2] == c]; B = mats[j][1][:, mats[j][2] == c]
            tau = kendalltau(acc(A), acc(B)).statistic
            reps = [kendalltau(acc(A, rng.integers(0, A.shape[1], A.shape[1])), acc(B, rng.integers(0, B.shape[1], B.shape[1]))).statistic for _ in range(1000)]
            lo, hi = np.percentile(reps, [2.5, 97.5])
t_s1 = time.perf_counter() - t1

t2 = time.perf_counter()
def point_biserial(X):
    tot = X.sum(axis=1, keepdims=True); rest = tot - X
    Xc = X - X.mean(0); Rc = rest - rest.mean(0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (Xc * Rc).sum(0) / np.sqrt((Xc ** 2).sum(0) * (Rc ** 2).sum(0))
for _, X, _ in mats:
    r = point_biserial(X); keep = np.nan_to_num(r, nan=-1) >= 0.15
t_s2 = time.perf_counter() - t2

t3 = time.perf_counter()
def corr_with(X, a):
    Xc = X - X.mean(0); ac = a - a.mean()
    with np.errstate(invalid="ignore", divide="ignore"):
        return (Xc * ac[:, None]).sum(0) / np.sqrt((Xc ** 2).sum(0) * (ac ** 2).sum())
for i in range(len(mats)):
    for j in range(i + 1, len(mats)):
        for c in cats:
            A = mats[i][1][:, mats[i][2] == c]; B = mats[j][1][:, mats[j][2] == c]
            P = np.hstack([A, B]); side = np.r_[np.zeros(A.shape[1]), np.ones(B.shape[1])]
            deltas = []
            for s in range(10):
                fold = np.empty(P.shape[1], dtype=int)
                for sd in (0, 1):
                    idx = rng.permutation(np.where(side == sd)[0]); fold[idx] = np.arange(len(idx)) % 5
                for f in range(5):
                    anchor = P[:, fold != f].mean(1)
                    T = P[:, fold == f]; ts = side[fold == f]
                    keep = np.nan_to_num(corr_with(T, anchor), nan=-1) >= 0.15
                    before = kendalltau(T[:, ts == 0].mean(1), T[:, ts == 1].mean(1)).statistic
                    after = kendalltau(T[:, (ts == 0) & keep].mean(1), T[:, (ts == 1) & keep].mean(1)).statistic
                    deltas.append(after - before)
            boot = [np.mean(rng.choice(deltas, len(deltas))) for _ in range(1000)]
t_s3 = time.perf_counter() - t3

t4 = time.perf_counter()
for _, X, _ in mats + [("pooled", np.hstack([m[1] for m in mats]), None)]:
    X = X[:, X.std(0) > 0]
    Z = (X - X.mean(0)) / X.std(0, ddof=1)
    ev = np.linalg.eigvalsh(Z @ Z.T / (Z.shape[0] - 1))[::-1]
    share = ev / X.shape[1]
t_pca = time.perf_counter() - t4
print(f"load {t_load:.2f} s, stage 1 {t_s1:.2f} s, stage 2 {t_s2:.2f} s, stage 3 {t_s3:.2f} s, PCA {t_pca:.2f} s")
