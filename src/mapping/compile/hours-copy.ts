// Appointment columns copied from the working-hours row covering the booked start: the room a
// Delphi agenda's HORARIO row gives the professional for that window (`SALA: { hours: SALA }`),
// Open Dental's operatory of the schedule row (`Op: { hours: op.OperatoryNum }`). The source's
// statements read the copied columns with the hours (availability.ts); the booking and every
// reschedule read the covering row in their transaction (services/covering-hours.ts), and the
// value follows the time as a slot-derived column does.
import type { MappingModel } from '../model.js'
import type { SqlTypeName, WriteSpecDoc } from '../schema.js'
import { segment } from './references.js'
import type { WriteContext, WrittenValue } from './derived.js'

type WriteValueDoc = NonNullable<WriteSpecDoc['set']>[string]
export type HoursCopyDoc = Extract<WriteValueDoc, { hours: unknown }>

/** The copied columns of the covering row, by the name the mapping gives (`SALA`, `op.OperatoryNum`). */
export type CoveringHours = Readonly<Record<string, unknown>>

/** A column a source's rows carry for the copies, the mapping place naming it, and the appointment column it is written into (with its `otherwise`). */
export interface HoursColumn { name: string, path: string, column: string, otherwise?: HoursCopyDoc['otherwise'], otherwisePath: string }

export const isHoursCopy = (w: WriteValueDoc): w is HoursCopyDoc => 'hours' in w

/** Every `{ hours: … }` under the appointment's `write.set`, the only place load accepts one (written-values.ts). */
export function hoursColumns (model: MappingModel): HoursColumn[] {
  const a = model.appointment
  return Object.entries(a.write?.set ?? {}).flatMap(([column, w]) => isHoursCopy(w)
    ? [{ name: w.hours, path: `${a.path}/write/set/${segment(column)}/hours`, column, otherwise: w.otherwise, otherwisePath: `${a.path}/write/set/${segment(column)}/${w.otherwise === undefined ? 'hours' : 'otherwise'}` }]
    : [])
}

export function hoursValue (w: HoursCopyDoc, column: string): WrittenValue {
  const otherwise = w.otherwise ?? null
  const type: SqlTypeName = w.type ?? (typeof otherwise === 'number' ? 'int' : 'text')
  return {
    column,
    type,
    // Rewritten by every reschedule, from the row covering the new start.
    followsTime: true,
    fromHours: true,
    value: (_now, c?: WriteContext) => {
      const v = c?.time?.covering?.[w.hours]
      return v === undefined || v === null ? otherwise : v
    }
  }
}
