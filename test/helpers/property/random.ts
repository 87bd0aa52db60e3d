// A small seeded generator (sfc32, seeded by splitmix32): the same seed gives the same
// installations and writes on every machine, so a failing case replays from its seed.
export interface Random {
  /** A float in [0, 1). */
  next: () => number
  int: (min: number, max: number) => number
  pick: <T>(xs: readonly T[]) => T
  chance: (p: number) => boolean
  /** Distinct items, in the list's order. */
  some: <T>(xs: readonly T[], min?: number, max?: number) => T[]
}

function splitmix32 (a: number): () => number {
  return () => {
    a |= 0
    a = (a + 0x9e3779b9) | 0
    let t = a ^ (a >>> 16)
    t = Math.imul(t, 0x21f0aaad)
    t ^= t >>> 15
    t = Math.imul(t, 0x735a2d97)
    return (t ^ (t >>> 15)) >>> 0
  }
}

function hash (text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

export function random (seed: number | string): Random {
  const seedOf = splitmix32(typeof seed === 'number' ? seed : hash(seed))
  let a = seedOf()
  let b = seedOf()
  let c = seedOf()
  let d = seedOf()
  const next = (): number => {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0
    const t = (a + b | 0) + d | 0
    d = d + 1 | 0
    a = b ^ b >>> 9
    b = c + (c << 3) | 0
    c = c << 21 | c >>> 11
    c = c + t | 0
    return (t >>> 0) / 4294967296
  }
  for (let i = 0; i < 12; i++) next()
  const self: Random = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (xs) => xs[Math.floor(next() * xs.length)],
    chance: (p) => next() < p,
    some: (xs, min = 0, max = xs.length) => {
      const n = self.int(min, Math.min(max, xs.length))
      const chosen = new Set<number>()
      while (chosen.size < n) chosen.add(Math.floor(next() * xs.length))
      return xs.filter((_, i) => chosen.has(i))
    }
  }
  return self
}
