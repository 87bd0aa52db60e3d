// Lengths kept as pattern strings (`pattern: { per }`): Open Dental's `Pattern` holds one
// character per 5 minutes (`//XX//` is 30 minutes), whichever characters they are. Read here;
// written by lengthPattern (derived.ts), which a booking uses for the same column.
import { lengthPattern } from './derived.js'

/** Minutes a stored pattern stands for; none when it is blank or not text. */
export function patternMinutes (x: unknown, per: number): number | undefined {
  if (typeof x !== 'string') return undefined
  // Trailing spaces are a CHAR column's padding, not characters of the pattern.
  const characters = [...x.trimEnd()].length
  return characters > 0 ? characters * per : undefined
}

/** The pattern a booking of `minutes` writes; undefined when the length is not whole characters (it would read back otherwise). */
export function storedPattern (minutes: number, p: { per: number, repeat?: string, edges?: string }): string | undefined {
  if (!(minutes > 0) || minutes % p.per !== 0) return undefined
  return lengthPattern(minutes, p.per, p.repeat ?? 'X', p.edges ?? '')
}
