"""A small seeded RNG that gives the same numbers on every interpreter.

Combined multiplicative congruential generator (L'Ecuyer 1988): two 31-bit streams with
Schrage's method, so no product exceeds 2**31 (a 32-bit port briefly uses long ints, which
is exact; simulation runs on the desktop).
The simulators take an Rng, never the global `random`, so a seed names one game everywhere.
"""

_M1 = 2147483563
_M2 = 2147483399


class Rng:
    def __init__(self, seed):
        seed = int(seed)
        self.s1 = seed % (_M1 - 1) + 1
        self.s2 = (seed // 7 + 12345) % (_M2 - 1) + 1

    def next(self):
        """Next integer in 1.._M1-1 (about 31 bits)."""
        # Schrage: a*s mod m = a*(s % q) - r*(s // q), with m = a*q + r; no product over 2**31
        k = self.s1 // 53668
        s1 = 40014 * (self.s1 - k * 53668) - k * 12211
        if s1 < 0:
            s1 += _M1
        k = self.s2 // 52774
        s2 = 40692 * (self.s2 - k * 52774) - k * 3791
        if s2 < 0:
            s2 += _M2
        self.s1, self.s2 = s1, s2
        z = s1 - s2
        if z < 1:
            z += _M1 - 1
        return z

    def randbelow(self, n):
        """Uniform integer in 0..n-1 for 0 < n < 2**20 (rejection keeps it unbiased)."""
        lim = (2147483562 // n) * n
        while True:
            z = self.next() - 1
            if z < lim:
                return z % n

    def shuffle(self, items):
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items):
        return items[self.randbelow(len(items))]
