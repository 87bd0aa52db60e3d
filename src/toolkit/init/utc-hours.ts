// Naive UTC given away by the hours: starts stored at night in the clinic's zone that are
// daytime when read as UTC (OpenMRS on a UTC JVM: an evening visit in São Paulo stored at 01:30
// the next day). A clinic open at night is rare; a clock three hours off, common.
import { asText } from './values.js'

/** Night as stored: no clinic's usual hours. */
const night = (h: number): boolean => h < 6 || h >= 22
const hourIn = (zone: string, at: Date): number => Number(new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', hourCycle: 'h23' }).format(at))

export interface UtcHours { night: number, sampled: number }

/** How many sampled starts are night as stored and day once read as UTC in `zone`; undefined when too few to say. */
export function utcHours (values: unknown[], zone: string): UtcHours | undefined {
  const stamps = values.map(asText).flatMap((s) => {
    const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})/.exec(s)
    return m === null || m[1] < '1900' ? [] : [{ hour: Number(m[4]), utc: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]))) }]
  })
  const shifted = stamps.filter((s) => night(s.hour) && !night(hourIn(zone, s.utc))).length
  // A few late rows are a clinic's own business; one in twenty visits at night is a clock.
  return shifted >= 3 && shifted >= 0.05 * stamps.length ? { night: shifted, sampled: stamps.length } : undefined
}
