// A `left` row's copies of the appointment row as it was (`{ before: column }`) go from one
// live column into another by the database itself, converted by nothing: a date into a number
// column fails every state change, and text into a shorter column fails (or is cut) whenever
// a row holds a longer value. Said at the copy's line, from the catalogue alone.
import type { MappingModel } from '../mapping/model.js'
import type { LiveCatalog, LiveColumn } from '../db/columns.js'
import type { Findings } from './findings.js'

export function checkCopiedColumns (model: MappingModel, catalog: LiveCatalog, out: Findings): void {
  const a = model.appointment
  const h = a.write?.history
  const from = catalog.table(a.table)
  const into = h && catalog.table(h.table)
  if (!h?.left || !from || !into) return
  for (const [column, w] of Object.entries(h.left)) {
    if (!('before' in w)) continue
    const target = into.columns.get(column.toLowerCase())
    // A missing column is the catalog pass's to say.
    if (!target) continue
    for (const key of ['before', 'otherwise'] as const) {
      const source = w[key] === undefined ? undefined : from.columns.get(w[key].toLowerCase())
      if (!source) continue
      const problem = misfit(source, target)
      if (problem === undefined) continue
      const said = `\`${a.table}.${source.name}\` (${source.declared}) is copied into \`${h.table}.${target.name}\` (${target.declared}) ${problem}`
      if (problem.startsWith('but')) out.problem(`${a.path}/write/history/left/${column}/${key}`, said)
      else out.warning(`${a.path}/write/history/left/${column}/${key}`, said)
    }
  }
}

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
