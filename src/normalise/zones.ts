// Wall clocks of two zones: a database that stores date-times in UTC (or any zone other than
// the clinic's) holds naive values of that zone, which Ponte turns into the clinic's wall
// clock on read and back on write (mapping `storedIn`). Offsets come from Intl, so DST
// changes are the zone database's, not ours; no dependency on the process's own zone.
import { dateOfDay, dayNumber } from './datetime.js'

const MS_PER_DAY = 86_400_000
const NAIVE = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/
// The date-times a four-digit year spells: a shift past them keeps the stored value (a "never" 9999-12-31).
const FIRST = '0001-01-01 00:00:00'
const LAST = '9999-12-31 23:59:59'

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatter (zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone)
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', era: 'short'
    })
    formatters.set(zone, f)
  }
  return f
}

/** Whether the zone is one the runtime's zone database knows (an IANA name such as `UTC`, `America/Sao_Paulo`). */
export function isTimeZone (zone: string): boolean {
  try {
    formatter(zone)
    return true
  } catch {
    return false
  }
}

/** Milliseconds since 1970 of a naive 'YYYY-MM-DD HH:MM:SS' read as if it were UTC. */
function naiveMs (text: string): number | undefined {
  const m = NAIVE.exec(text)
  if (m === null) return undefined
  let day: number
  try { day = dayNumber(m[1]!) } catch { return undefined }
  const [h, min, s] = [m[2], m[3], m[4]].map((x) => Number(x ?? 0)) as [number, number, number]
  if (h > 23 || min > 59 || s > 59) return undefined
  return day * MS_PER_DAY + ((h * 60 + min) * 60 + s) * 1000
}

function naiveText (ms: number): string {
  const day = Math.floor(ms / MS_PER_DAY)
  const secs = Math.floor((ms - day * MS_PER_DAY) / 1000)
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${dateOfDay(day)} ${pad(Math.floor(secs / 3600))}:${pad(Math.floor(secs / 60) % 60)}:${pad(secs % 60)}`
}

/** The zone's wall clock at an instant, as naive milliseconds. */
function wallMs (zone: string, instant: number): number {
  const p: Record<string, string> = {}
  for (const part of formatter(zone).formatToParts(new Date(instant))) p[part.type] = part.value
  const year = p.era === 'BC' ? 1 - Number(p.year) : Number(p.year)
  const day = dayNumber(`${String(year).padStart(4, '0')}-${p.month}-${p.day}`)
  return day * MS_PER_DAY + ((Number(p.hour) * 60 + Number(p.minute)) * 60 + Number(p.second)) * 1000
}

// Asking Intl is slow next to reading a row, and offsets change a few times a year: each
// zone's offset is kept per hour of UTC, where the hour's first and last seconds agree (an
// hour holding a change is asked about each time). Bounded: a long-running process forgets.
const HOUR_MS = 3_600_000
const KEPT_HOURS = 100_000
const offsets = new Map<string, Map<number, number>>()

function offsetAt (zone: string, instant: number): number {
  const hour = Math.floor(instant / HOUR_MS)
  let kept = offsets.get(zone)
  if (kept === undefined) offsets.set(zone, kept = new Map())
  const known = kept.get(hour)
  if (known !== undefined) return Number.isNaN(known) ? wallMs(zone, instant) - instant : known
  const first = hour * HOUR_MS
  const atFirst = wallMs(zone, first) - first
  const last = first + HOUR_MS - 1000
  const steady = wallMs(zone, last) - last === atFirst
  if (kept.size >= KEPT_HOURS) kept.clear()
  kept.set(hour, steady ? atFirst : Number.NaN)
  return steady ? atFirst : wallMs(zone, instant) - instant
}

/**
 * The instant a zone's wall clock shows `wall`. A wall time the zone skips (a spring-forward
 * gap) is read with the offset before the change, landing as far past the gap as it was into
 * it; a wall time it shows twice (falling back) is the first of the two.
 */
function instantOf (zone: string, wall: number): number {
  const before = offsetAt(zone, wall - MS_PER_DAY)
  const after = offsetAt(zone, wall + MS_PER_DAY)
  if (before === after) return wall - before // no change within a day of it
  const fits = [before, after].filter((o) => offsetAt(zone, wall - o) === o).map((o) => wall - o)
  return fits.length > 0 ? Math.min(...fits) : wall - before
}

/**
 * A naive date-time ('YYYY-MM-DD HH:MM[:SS]', a space or T between) on `from`'s wall clock as
 * the same instant on `to`'s, 'YYYY-MM-DD HH:MM:SS'. undefined: not such a value, or an instant
 * a four-digit year cannot spell on one of the clocks.
 */
export function shiftWallClock (naive: string, from: string, to: string): string | undefined {
  const wall = naiveMs(naive.trim())
  if (wall === undefined) return undefined
  if (from === to) return naiveText(wall)
  try {
    const instant = instantOf(from, wall)
    const out = naiveText(instant + offsetAt(to, instant))
    return out >= FIRST && out <= LAST ? out : undefined
  } catch {
    return undefined // past the years 1–9999
  }
}

/** A driver's date-time (text, or a Date whose local fields are the stored value, as mssql gives it) as naive text; anything else undefined. */
export function naiveDatetime (raw: unknown): string | undefined {
  if (raw instanceof Date) {
    if (Number.isNaN(raw.getTime())) return undefined
    const pad = (n: number): string => String(n).padStart(2, '0')
    return `${String(raw.getFullYear()).padStart(4, '0')}-${pad(raw.getMonth() + 1)}-${pad(raw.getDate())} ${pad(raw.getHours())}:${pad(raw.getMinutes())}:${pad(raw.getSeconds())}`
  }
  return typeof raw === 'string' && naiveMs(raw.trim()) !== undefined ? raw.trim() : undefined
}

/**
 * Whether a zone's wall clock never shows the naive date-time ('YYYY-MM-DD HH:MM[:SS]'): it
 * falls in a spring-forward gap (02:00–03:00 in America/Chicago on the night clocks go
 * forward). A repeated wall time (falling back) does show, so it is not skipped.
 */
export function skippedOnWallClock (naive: string, zone: string): boolean {
  const wall = naiveMs(naive.trim())
  if (wall === undefined) return false
  try {
    if (offsetAt(zone, wall - MS_PER_DAY) === offsetAt(zone, wall + MS_PER_DAY)) return false
    const instant = instantOf(zone, wall)
    return instant + offsetAt(zone, instant) !== wall
  } catch {
    return false // past the years 1–9999
  }
}
