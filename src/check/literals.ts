// Constants a mapping writes (`write.set`, a state's columns, the history rows) against the
// declared type of their column: `status: { value: "zero" }` on an integer column passes every
// other check, then every state move answers 400. Said here, at the constant's line.
import type { MappingModel } from '../mapping/model.js'
import type { LiveCatalog, LiveColumn } from '../db/columns.js'
import type { Findings } from './findings.js'

type Written = Record<string, unknown> | undefined
type Row = { join?: string, update?: Written }

/** What `now` writes into a text column, as text. */
/** The keys of copies of what a booking names (`{ client: familyFirst }`, `{ service: name }`). */
const COPIES = ['client', 'service', 'professional', 'location', 'healthInsurance']

const NOW_TEXT: Record<string, string> = { datetime: '2026-01-01 00:00:00', date: '2026-01-01', time: '00:00:00' }

export function checkWrittenConstants (model: MappingModel, catalog: LiveCatalog, out: Findings): void {
  const a = model.appointment
  const c = model.client
  const aw = a.write as { set?: Written, update?: Written, reschedule?: Written, states?: Record<string, Written>, history?: { table: string, open?: Written, close?: Written, left?: Written, after?: Written } } | undefined
  const cw = c.write as { set?: Written, update?: Written, before?: Row[], after?: Row[] } | undefined
  const at = (table: string, path: string, set: Written): void => {
    const live = catalog.table(table)
    if (!live || !set) return
    for (const [column, written] of Object.entries(set)) {
      const col = live.columns.get(column.toLowerCase())
      if (!col || typeof written !== 'object' || written === null) continue // a missing column is the catalog pass's to say
      const problem = misfit(written as Record<string, unknown>, col, undefined, c.write?.phoneFormat)
      if (problem) out.problem(`${path}/${column}`, problem)
      // A code per state (a status history's, entered or left) is a constant for each state.
      const { state: entered, codes: left } = written as { state?: unknown, codes?: unknown }
      for (const [key, codes] of [['state', entered], ['codes', left]] as const) {
        if (typeof codes !== 'object' || codes === null) continue
        for (const [state, code] of Object.entries(codes)) {
          const wrong = misfit({ value: code }, col, `${key}.${state}: ${JSON.stringify(code)}`)
          if (wrong) out.problem(`${path}/${column}/${key}/${state}`, wrong)
        }
      }
    }
  }
  at(a.table, `${a.path}/write/set`, aw?.set)
  at(a.table, `${a.path}/write/update`, aw?.update)
  at(a.table, `${a.path}/write/reschedule`, aw?.reschedule)
  at(a.table, `${a.path}/openSlots/claim`, a.openSlots?.claim as Written)
  for (const [state, set] of Object.entries(aw?.states ?? {})) at(a.table, `${a.path}/write/states/${state}`, set)
  if (aw?.history) {
    at(aw.history.table, `${a.path}/write/history/open`, aw.history.open)
    at(aw.history.table, `${a.path}/write/history/close`, aw.history.close)
    at(aw.history.table, `${a.path}/write/history/left`, aw.history.left)
    at(aw.history.table, `${a.path}/write/history/after`, aw.history.after)
  }
  for (const [i, row] of (a.write?.log ?? []).entries()) at(row.table, `${a.path}/write/log/${i}/set`, row.set as Written)
  at(c.table, `${c.path}/write/set`, cw?.set)
  at(c.table, `${c.path}/write/update`, cw?.update)
  // A joined row's own stamps, in the join's table.
  for (const when of ['before', 'after'] as const) {
    for (const [i, row] of (cw?.[when] ?? []).entries()) {
      const table = row.join === undefined ? undefined : c.joins[row.join]?.table
      if (table !== undefined) at(table, `${c.path}/write/${when}/${i}/update`, row.update)
    }
  }
  // A phone row's copies of its phone (`{ phone: e164 }`), in the table its phones are collected from.
  const after = (c.write as { after?: { join?: string, phones?: number, set?: Written }[] } | undefined)?.after ?? []
  for (const [i, row] of after.entries()) {
    const table = row.join === undefined && row.phones !== undefined ? c.phones[row.phones]?.collect?.table : undefined
    if (table !== undefined) at(table, `${c.path}/write/after/${i}/set`, row.set)
  }
}

/** The format a copy of a phone is written in (`{ client: phone }` by default as the client's phones are); undefined for any other value. */
function phoneCopyFormat (written: Record<string, unknown>, clientFormat: string): string | undefined {
  if ('phone' in written) return String(written.phone)
  if (written.client === 'phone') return typeof written.format === 'string' ? written.format : clientFormat
  return undefined
}

/** A phone copy's spelling against its column: text into numbers, a mask longer than the column. */
function phoneMisfit (format: string, col: LiveColumn, where: string): string | undefined {
  const digits = format === 'digits' || format === 'national'
  if (col.kind === 'date' || (col.kind === 'number' && !digits)) return `a phone copied as \`${format}\` is text, but ${where}`
  if (col.kind === 'text' && col.length !== undefined && format.includes('#') && format.length > col.length) {
    return `a phone copied as \`${format}\` writes ${format.length} characters, but column \`${col.name}\` holds ${col.length} (${col.declared})`
  }
  return undefined
}

/** `said`: how the constant is named in the message (`value: "x"` unless a state's code). */
function misfit (written: Record<string, unknown>, col: LiveColumn, said?: string, clientFormat = 'digits'): string | undefined {
  const where = `column \`${col.name}\` holds ${col.kind === 'number' ? 'numbers' : 'dates and times'} (${col.declared})`
  if ('value' in written) {
    const v = written.value
    if (typeof v !== 'string') return undefined
    const named = said ?? `value: ${JSON.stringify(v)}`
    if (col.kind === 'number' && !/^\s*-?\d+(\.\d+)?\s*$/.test(v)) return `\`${named}\` is text, but ${where}: write the number the legacy system stores`
    if (col.kind === 'date' && !/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$|^\d{2}:\d{2}(:\d{2})?$/.test(v)) return `\`${named}\` is not a date or time, but ${where}`
  }
  const numeric = ['int', 'hhmm', 'minutes'].includes(String(written.format))
  if ('now' in written && col.kind === 'number' && !numeric) return `\`now\` writes a date or time, but ${where}`
  if ('now' in written && col.kind === 'date' && (numeric || written.format === 'dmy' || written.format === 'ymd')) return `\`now\` with \`format: ${String(written.format)}\` writes ${numeric ? 'a number' : written.format === 'ymd' ? 'YYYYMMDD text' : 'DD/MM/YYYY text'}, but ${where}: leave out \`format\``
  // A phone copied as digits may go in a number; any other spelling is text as long as its mask.
  const phone = phoneCopyFormat(written, clientFormat)
  if (phone !== undefined) return phoneMisfit(phone, col, where)
  // A copy of a name (the client's, a service's) is text; a copied id may be a number.
  const copied = COPIES.find((k) => k in written)
  if (copied !== undefined && (col.kind === 'number' || col.kind === 'date') && (copied === 'client' || written[copied] === 'name')) return `\`${copied}: ${String(written[copied])}\` writes a name, but ${where}`
  // Text longer than the column: strict servers refuse it, SQL Server cuts it or refuses it.
  if (col.kind === 'text' && col.length !== undefined) {
    const written_ = 'value' in written && typeof written.value === 'string'
      ? written.value
      : 'now' in written ? (written.format === 'text' && written.now === 'time' ? '00:00' : written.format === 'ymd' ? '20260101' : NOW_TEXT[String(written.now)]) : undefined
    if (written_ !== undefined && written_.length > col.length) {
      return `${'now' in written ? `\`now: ${String(written.now)}\`` : `\`${said ?? `value: ${JSON.stringify(written_)}`}\``} writes ${written_.length} characters, but column \`${col.name}\` holds ${col.length} (${col.declared})`
    }
  }
  return undefined
}
