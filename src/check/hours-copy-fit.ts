// `ponte check` on the values a `{ hours: … }` copy writes into the appointment's column: each
// distinct value the working-hours rows hold (a NULL one writing `otherwise`) and `otherwise`
// itself (what a booking nobody's hours cover writes), fitted to the live column as the write
// fits it, so a check that passes means every booking's copy is stored. Said at the copy's
// line, with counts and the first misfit value (a room or an operatory, never patient data).
import type { LiveCatalog, LiveColumn } from '../db/columns.js'
import { fitToColumn } from '../db/column-values.js'
import type { MappingModel } from '../mapping/model.js'
import type { HoursColumn } from '../mapping/compile/index.js'
import type { Findings } from './findings.js'

export function checkHoursCopyFit (model: MappingModel, catalog: LiveCatalog, copy: HoursColumn, copied: unknown[], out: Findings): void {
  const live = catalog.table(model.appointment.table)?.columns.get(copy.column.toLowerCase())
  // A missing column is the catalog pass's to say.
  if (!live) return
  const into = `\`${model.appointment.table}.${live.name}\` (${live.declared || live.kind})`
  const otherwise = copy.otherwise ?? null
  const refused = whyNot(otherwise, live)
  if (refused !== undefined) {
    out.problem(copy.otherwisePath, `\`otherwise: ${JSON.stringify(otherwise)}\`${copy.otherwise === undefined ? ' (the default)' : ''} is written where no working-hours row covers the start (a booking without a professional), but ${into} ${refused}: such a booking would be refused`)
  }
  const misfits = [...new Set(copied.filter((v) => v !== null && v !== undefined).map((v) => v as string | number))].filter((v) => whyNot(v, live) !== undefined)
  if (misfits.length === 0) return
  out.problem(copy.path, `${misfits.length} value${misfits.length === 1 ? '' : 's'} of \`${copy.name}\` in the working-hours rows cannot be written into ${into} (${JSON.stringify(misfits[0])}: ${whyNot(misfits[0], live) ?? ''}): a booking covered by such a row would be refused; correct the rows, or copy into a column of their kind`)
}

/** Why the column does not take `value` as a write stores it; undefined when it does. */
function whyNot (value: unknown, live: LiveColumn): string | undefined {
  if (value === null || value === undefined) return live.notNull ? 'is NOT NULL' : undefined
  // An empty text is not a number: SQLite would keep '', the others refuse it.
  if (live.kind === 'number' && typeof value === 'string' && value.trim() === '') return 'holds numbers'
  const fitted = fitToColumn(value, live)
  return 'problem' in fitted ? fitted.problem : undefined
}
