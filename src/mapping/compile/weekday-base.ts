// How a stored weekday number counts the days (`weekdayBase`), in one place: the weekly
// template's `weekday` and a recurring row's `repeat.weekday` and `repeat.weekdays`.

/** A stored weekday number as 0 = Sunday … 6 = Saturday; undefined when the numbering has no such day. */
export function weekdayOf (base: 0 | 1 | 'iso'): (n: number) => number | undefined {
  // ISO 8601 counts Monday 1 … Sunday 7: Sunday is the one that moves.
  if (base === 'iso') return (n) => Number.isInteger(n) && n >= 1 && n <= 7 ? n % 7 : undefined
  return (n) => Number.isInteger(n) && n - base >= 0 && n - base <= 6 ? n - base : undefined
}
