// Working hours kept as a template string (`pattern`): OSCAR's `timecode`, one character per
// slot of the day, its slot length the day's minutes divided by the string's length. Cut here
// into the runs of bookable slots, which slots.ts then treats as any other working window.

/** [start, end) in minutes since midnight; `refuses`: the services its code does not take (`pattern.services`). */
export interface MinuteSpan { start: number, end: number, refuses?: ReadonlySet<string> }

export interface PatternDoc { minutes?: number, bookable?: string, closed?: string, services?: Record<string, string> }

export interface PatternDay {
  /** Minutes each character stands for: the grid of the day's slots. */
  interval: number
  /** Where the pattern ends, in minutes since midnight. */
  end: number
  /** Consecutive bookable characters, each run one window. */
  bookable: MinuteSpan[]
}

const DAY_END = 24 * 60
const DEFAULT_CLOSED = '_'

/**
 * The day a stored pattern describes from `from` (minutes) to `to` (undefined: midnight, or
 * with fixed `minutes` as far as the string reaches). Undefined when the string cannot be read
 * as whole slots: blank, not dividing the hours into whole minutes, or running past them.
 */
export function readDayPattern (stored: unknown, from: number, to: number | undefined, p: PatternDoc): PatternDay | undefined {
  if (typeof stored !== 'string') return undefined
  // Trailing spaces are a CHAR column's padding, not slots.
  const codes = [...stored.trimEnd()]
  if (codes.length === 0) return undefined
  const interval = p.minutes ?? ((to ?? DAY_END) - from) / codes.length
  const end = from + interval * codes.length
  if (!Number.isInteger(interval) || interval <= 0 || end > (to ?? DAY_END) || (to !== undefined && p.minutes !== undefined && end !== to)) return undefined
  const offered = p.bookable !== undefined ? (c: string) => p.bookable?.includes(c) === true : (c: string) => !(p.closed ?? DEFAULT_CLOSED).includes(c)
  const refusing = refusals(p.services)
  const bookable: MinuteSpan[] = []
  codes.forEach((c, i) => {
    if (!offered(c)) return
    const start = from + i * interval
    const refuses = refusing(c)
    const last = bookable.at(-1)
    // A run is one window only while its codes take the same services.
    if (last?.end === start && last.refuses === refuses) last.end = start + interval
    else bookable.push({ start, end: start + interval, ...refuses ? { refuses } : {} })
  })
  return { interval, end, bookable }
}

/**
 * The services each code refuses, from `services` (service id → the codes it may be booked on):
 * a service listed there only on its codes, any other on every bookable code. One set per code
 * (the same object each time, so runs of one code compare equal); undefined where it refuses none.
 */
function refusals (services: Record<string, string> | undefined): (code: string) => ReadonlySet<string> | undefined {
  if (services === undefined) return () => undefined
  const byCode = new Map<string, ReadonlySet<string> | undefined>()
  return (code) => {
    if (!byCode.has(code)) {
      const refused = new Set(Object.entries(services).filter(([, codes]) => !codes.includes(code)).map(([service]) => service))
      byCode.set(code, refused.size > 0 ? refused : undefined)
    }
    return byCode.get(code)
  }
}
