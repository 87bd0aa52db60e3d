// A seeded pseudo-random source (mulberry32): the same seed picks the same sample of the data
// on every run and every side, so a difference seen once can be seen again.
export interface Rng {
  /** A float in [0, 1). */
  next: () => number
  /** Up to `n` items of `xs`, without repeats, in a seed-determined order. */
  sample: <T>(xs: readonly T[], n: number) => T[]
  pick: <T>(xs: readonly T[]) => T
}

export function seeded (seed: number): Rng {
  let s = seed >>> 0
  const next = (): number => {
    s = (s + 0x6D2B79F5) >>> 0
    let x = s
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
  const sample = <T>(xs: readonly T[], n: number): T[] => {
    const copy = [...xs]
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j], copy[i]]
    }
    return copy.slice(0, Math.max(0, n))
  }
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]
  return { next, sample, pick }
}

const DAY = 86_400_000
export function addDays (day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10)
}
