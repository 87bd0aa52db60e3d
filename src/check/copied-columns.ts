// A `left` row's copies of the appointment row as it was (`{ before: column }`), an `after`
// row's as the change left it (`{ after: column }`), and a booked
// lookup's column (`{ service: { column } }`), go from one live column into another
// unconverted: a date into a number column fails every write, and text into a shorter column
// fails (or is cut) whenever a row holds a longer value. Said at the copy's line, from the catalogue alone.
import type { MappingModel } from '../mapping/model.js'
import type { LiveCatalog, LiveColumn } from '../db/columns.js'
import type { Findings } from './findings.js'
import { segment } from '../mapping/compile/index.js'

export function checkCopiedColumns (model: MappingModel, catalog: LiveCatalog, out: Findings): void {
  checkLookupColumns(model, catalog, out)
  const a = model.appointment
  const h = a.write?.history
  const rows = [
    ...(['left', 'after'] as const).map((kind) => ({ table: h?.table, at: `${a.path}/write/history/${kind}`, set: h?.[kind] })),
    ...(a.write?.log ?? []).map((row, i) => ({ table: row.table, at: `${a.path}/write/log/${i}/set`, set: row.set }))
  ]
  const from = catalog.table(a.table)
  if (!from) return
  for (const { table, at, set } of rows) {
    const into = table === undefined ? undefined : catalog.table(table)
    if (!into) continue
    for (const [column, w] of Object.entries(set ?? {})) {
      const target = into.columns.get(column.toLowerCase())
      // A missing column is the catalog pass's to say.
      if (!target) continue
      const copies = 'before' in w ? { before: w.before, otherwise: w.otherwise } : 'after' in w ? { after: w.after } : {}
      for (const [key, name] of Object.entries(copies)) {
        const source = name === undefined ? undefined : from.columns.get(name.toLowerCase())
        if (!source) continue
        const problem = misfit(source, target)
        if (problem === undefined) continue
        const said = `\`${a.table}.${source.name}\` (${source.declared}) is copied into \`${table}.${target.name}\` (${target.declared}) ${problem}`
        if (problem.startsWith('but')) out.problem(`${at}/${segment(column)}/${key}`, said)
        else out.warning(`${at}/${segment(column)}/${key}`, said)
      }
    }
  }
}

/**
 * `{ service: { column: Pattern } }`: the booked lookup's column, bound as read, goes into the
 * appointment's column; the same kinds and lengths must fit. A missing column is the catalog
 * pass's to say (the lookup's statement reads it).
 */
function checkLookupColumns (model: MappingModel, catalog: LiveCatalog, out: Findings): void {
  const a = model.appointment
  const into = catalog.table(a.table)
  const places = [{ at: `${a.path}/write/set`, entries: a.write?.set }, { at: `${a.path}/openSlots/claim`, entries: a.openSlots?.claim }]
  for (const { at, entries } of places) {
    for (const [column, w] of Object.entries(entries ?? {})) {
      const ref = LOOKUPS.find((l) => l in w)
      const part = ref === undefined ? undefined : (w as Record<string, unknown>)[ref]
      const lookup = ref === undefined ? undefined : model.lookups[ref]
      if (ref === undefined || typeof part !== 'object' || part === null || !lookup) continue
      const copied = (part as { column: string }).column
      const source = catalog.table(lookup.table)?.columns.get(copied.toLowerCase())
      const target = into?.columns.get(column.toLowerCase())
      if (!source || !target) continue
      const problem = misfit(source, target)
      if (problem === undefined) continue
      const said = `\`${lookup.table}.${source.name}\` (${source.declared}) is copied into \`${a.table}.${target.name}\` (${target.declared}) ${problem.replace('every change writing the row', 'every booking').replace('a change whose row', 'a booking whose ' + ref)}`
      if (problem.startsWith('but')) out.problem(`${at}/${segment(column)}/${ref}/column`, said)
      else out.warning(`${at}/${segment(column)}/${ref}/column`, said)
    }
  }
}

const LOOKUPS = ['service', 'professional', 'location', 'healthInsurance'] as const

/** Why a value of `source` may not go into `target` as it is: a different kind (a problem), a shorter text (a warning). */
function misfit (source: LiveColumn, target: LiveColumn): string | undefined {
  const known = (c: LiveColumn): boolean => c.kind !== 'unknown' && c.kind !== 'other'
  // Text takes any value's spelling; a number or date column takes only its own kind.
  if (known(source) && known(target) && target.kind !== 'text' && source.kind !== target.kind) return `but that column holds ${target.kind === 'number' ? 'numbers' : 'dates and times'}: every change writing the row would be refused`
  const longest = source.kind === 'text' ? source.length : undefined
  if (target.kind === 'text' && target.length !== undefined && (longest === undefined ? source.kind === 'text' : longest > target.length)) {
    return `which holds at most ${target.length} characters: a change whose row holds a longer value is refused (or the copy cut)`
  }
  return undefined
}
