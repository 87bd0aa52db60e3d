// Readers' work that depends on one stored value alone (a legacy code's meaning, a phone's
// E.164 form) is done once per distinct stored text, not once per row: a list of a thousand
// appointments holds a handful of state codes. Bounded, so free text cannot grow it.

/** Distinct texts remembered per function; past it, values are computed as they come. */
export const MEMO_LIMIT = 256

/** `f` of a stored value, remembered for text values (numbers, dates and NULL are computed each time: cheap). */
export function memoText<T> (f: (x: unknown) => T, limit = MEMO_LIMIT): (x: unknown) => T {
  const known = new Map<string, T>()
  return (x) => {
    if (typeof x !== 'string') return f(x)
    const hit = known.get(x)
    if (hit !== undefined || known.has(x)) return hit as T
    const r = f(x)
    if (known.size < limit) known.set(x, r)
    return r
  }
}
