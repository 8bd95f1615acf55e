"""Response cache: one store shared by the workers vs one per worker, as a model.

Each request of a Zipf-like stream (exponent 0.9 over 20,000 keys) lands on a random worker, as
connections spread over SO_REUSEPORT listeners; a shared store is one LRU of the whole budget,
per-worker stores are one LRU of budget/workers each. Prints the hit ratio and the entries held
for each budget (README, "Response cache"). Pure Python, no gateway; runs in a few seconds.
"""
import random
from collections import OrderedDict
random.seed(7)
N_KEYS, REQ, ENTRY = 20000, 400000, 1
weights = [1/(i+1)**0.9 for i in range(N_KEYS)]
stream = random.choices(range(N_KEYS), weights=weights, k=REQ)
def run(budget, workers):
    caches = [OrderedDict() for _ in range(workers)]; per = budget // workers
    hits = 0
    for k in stream:
        c = caches[random.randrange(workers)]
        if k in c: c.move_to_end(k); hits += 1
        else:
            c[k] = 1
            if len(c) > per: c.popitem(last=False)
    return hits / REQ, sum(len(c) for c in caches), len(set().union(*[set(c) for c in caches]))
for budget in (1000, 4000, 40000):
    s = run(budget, 1); p = run(budget, 2)
    print(f"budget {budget}: shared hit {s[0]:.3f} entries {s[1]} distinct {s[2]} | per-worker hit {p[0]:.3f} entries {p[1]} distinct {p[2]}")
