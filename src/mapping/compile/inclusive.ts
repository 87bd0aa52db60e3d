// Ends stored as their last minute (`inclusive: true`): OSCAR keeps an appointment from 09:00
// to 09:15 as 09:00–09:14. The rule in one place, both ways: read one minute later, written one
// minute earlier, so every reader (appointments, working hours, blocks) and every write agree.
import { addDays, addMinutes, endHourAfter, endMinutesOf, minutesOf } from '../../normalise/datetime.js'

const MINUTES_PER_DAY = 24 * 60

/** The end an inclusive stored hour stands for: 09:14 → 09:15, 23:59 → 00:00 (midnight, as endMinutesOf reads it). */
export function endAfterLastMinute (hour: string): string {
  return endHourAfter(hour, 1) ?? hour
}

/** The date an inclusive stored date-time's end falls on: the next day when its last minute is 23:59. */
export function endDateAfterLastMinute (date: string, hour: string): string {
  return minutesOf(hour) + 1 === MINUTES_PER_DAY ? addDays(date, 1) : date
}

/** The last minute of a slot ending at `end` (after `start`, on the next day when earlier): 09:15 → 09:14, midnight → 23:59, 00:30 → 00:29. */
export function lastMinuteOf (start: string, end: string): string {
  return addMinutes('00:00', (endMinutesOf(start, end) - 1) % MINUTES_PER_DAY) ?? end
}

/** The same, as a stored date-time: on the start's `date`, or the next day's for a slot past midnight. */
export function lastMinuteDatetimeOf (date: string, start: string, end: string): string {
  return `${endMinutesOf(start, end) - 1 >= MINUTES_PER_DAY ? addDays(date, 1) : date} ${lastMinuteOf(start, end)}:00`
}
