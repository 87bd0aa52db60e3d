// Blocked time beside drafted working hours: tables named as holidays, absences or blocks
// (`FERIADOS`, `BLOQUEIOS`, `time_off`) with a date, drafted as `availability.blocks`, each
// scoped to the professional or location it names. Without them the draft's working hours would
// offer every holiday. A row marked as repeating yearly blocks its stored date only: said.
import type { LiveColumn, LiveTable } from '../../db/columns.js'
import type { Ref } from './refs.js'
import type { Samples } from './sample.js'
import { columns, ident, qualified } from './tables.js'
import { dateSpelling, hourLike } from './values.js'

const BLOCK_NAME = /(bloq|feriad|holiday|absen|ausen|block|folga|ferias|time_?off|leave|closed|fechad)/i
const FROM = /(^data$|^date$|^dia$|ini|start|from|^de$|begin)/i
const TO = /(fim|end|until|^ate$|^to$)/i
const YEARLY = /^(fixo|fixed|anual|yearly|recorrente|recurring|every_?year)$/i

function dateFormat (t: LiveTable, c: LiveColumn, samples: Samples): string | undefined {
  if (c.kind === 'date') return /time/i.test(c.declared) && !/^time$/i.test(c.declared) ? 'datetime' : 'date'
  const spelt = dateSpelling(samples.values(t, c.name) ?? [], c.kind)
  return spelt === undefined ? undefined : spelt.format === 'datetime' ? 'datetime' : spelt.format
}

/** `blocks:` lines (under `availability:`) for the tables of blocked time, or none. */
export function blocksYaml (tables: LiveTable[], refs: Ref[], samples: Samples, professionals: LiveTable | undefined, locations: LiveTable | undefined): string[] {
  const sources = tables.filter((t) => BLOCK_NAME.test(t.name)).flatMap((t) => {
    const dates = columns(t).filter((c) => dateFormat(t, c, samples) !== undefined && !/(creat|alter|updat|regist|cadastr)/i.test(c.name))
    const from = dates.find((c) => FROM.test(c.name)) ?? dates[0]
    if (from === undefined) return []
    const to = dates.find((c) => c !== from && TO.test(c.name))
    const hours = columns(t).filter((c) => c.kind === 'date' ? /^time/i.test(c.declared) : hourLike(samples.values(t, c.name) ?? []) === true)
    const start = hours.find((c) => FROM.test(c.name) || /ini|start/i.test(c.name))
    const end = hours.find((c) => c !== start && TO.test(c.name))
    const pro = professionals ? refs.find((r) => r.from === t && r.to === professionals) : undefined
    const loc = locations ? refs.find((r) => r.from === t && r.to === locations) : undefined
    const yearly = columns(t).find((c) => YEARLY.test(c.name))
    const hourFmt = (c: LiveColumn): string => c.kind === 'date' ? 'time' : 'text'
    return [
      `    - table: ${ident(qualified(t))}   # guess: named as blocked time` + (pro || loc ? '' : '; no professional or location named: blocks everybody'),
      ...pro ? [`      professional: ${ident(pro.column.name)}`] : [],
      ...loc ? [`      location: ${ident(loc.column.name)}`] : [],
      `      from: { column: ${ident(from.name)}, format: ${dateFormat(t, from, samples) ?? 'date'} }`,
      ...to ? [`      to: { column: ${ident(to.name)}, format: ${dateFormat(t, to, samples) ?? 'date'} }`] : [],
      ...start && end ? [`      start: { column: ${ident(start.name)}, format: ${hourFmt(start)} }`, `      end: { column: ${ident(end.name)}, format: ${hourFmt(end)} }`] : [],
      ...yearly ? [`      # TODO: rows marked ${yearly.name} repeat every year, and a block holds its stored date only: give those rows this year's date, or leave them out with a where`] : []
    ]
  })
  return sources.length === 0 ? [] : ['  blocks:', ...sources]
}
