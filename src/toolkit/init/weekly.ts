// Working hours by weekday (a Delphi agenda's `HORARIOS`: professional, weekday, start, end,
// interval, validity), drafted as `availability.weekly` where the data say how the weekday
// counts: the numbering (`0`, `1` or `iso`) under which the sampled appointments fall on the
// weekdays their professional works. A numbering one day off would offer every slot on the
// wrong day, so where no numbering fits clearly the section stays a TODO.
import type { LiveColumn, LiveTable } from '../../db/columns.js'
import type { Ref } from './refs.js'
import type { Samples } from './sample.js'
import { columns, ident, qualified } from './tables.js'
import { asText, dateSpelling, hourLike, toIso } from './values.js'

const WEEKDAY = /^(weekday|week_?day|dia_?semana|dia_?da_?semana|diasemana|dow|day_?of_?week)$/i
const START = /(ini|start|begin|de$|from)/i
const END = /(fim|end|until|ate$|to$)/i
const INTERVAL = /(interv|durac|slot|minut|length)/i
const VALID_FROM = /(valid\w*_?(ini|from|de)|inicio_?valid|vig\w*_?ini|from_?date|valid_?from)/i
const VALID_TO = /(valid\w*_?(fim|to|ate|end)|fim_?valid|vig\w*_?fim|to_?date|valid_?(to|until))/i

type Base = '0' | '1' | 'iso'
const BASES: Base[] = ['0', '1', 'iso']
const SAID: Record<Base, string> = { 0: 'Sunday 0 … Saturday 6', 1: 'Sunday 1 … Saturday 7', iso: 'Monday 1 … Sunday 7' }

/** A date's weekday as each numbering counts it. */
function weekday (iso: string, base: Base): number {
  const day = new Date(`${iso.slice(0, 10)}T12:00:00Z`).getUTCDay()
  return base === '0' ? day : base === '1' ? day + 1 : day === 0 ? 7 : day
}

export interface WeeklyInput {
  /** The appointment table, its professional column and its start (a date or a date-time). */
  appointment: LiveTable
  professional: LiveColumn
  start: LiveColumn
  /** The professional and location tables the draft chose. */
  professionals: LiveTable
  locations?: LiveTable
}

/** `availability:` lines for a table of weekly hours, or TODO comments where the numbering cannot be told; none where no table fits. */
export function weeklyYaml (tables: LiveTable[], refs: Ref[], samples: Samples, input: WeeklyInput): string[] {
  for (const t of tables) {
    const day = columns(t).find((c) => WEEKDAY.test(c.name))
    const pro = refs.find((r) => r.from === t && r.to === input.professionals)
    const hours = columns(t).filter((c) => c.kind === 'date' ? /time/i.test(c.declared) : hourLike(samples.values(t, c.name) ?? []) === true)
    const start = hours.find((c) => START.test(c.name)) ?? hours[0]
    const end = hours.find((c) => c !== start && END.test(c.name))
    if (day === undefined || pro === undefined || start === undefined || end === undefined) continue
    const fit = numbering(t, day, pro.column, samples, input)
    const loc = input.locations ? refs.find((r) => r.from === t && r.to === input.locations) : undefined
    const interval = columns(t).find((c) => c.kind === 'number' && INTERVAL.test(c.name))
    const valid = (re: RegExp): LiveColumn | undefined => columns(t).find((c) => re.test(c.name))
    const from = valid(VALID_FROM)
    const to = valid(VALID_TO)
    const fmt = (c: LiveColumn): string => c.kind === 'date' ? (/time/i.test(c.declared) ? 'time' : 'date') : 'text'
    const dateFmt = (c: LiveColumn): string => c.kind === 'date' ? 'date' : dateSpelling(samples.values(t, c.name) ?? [], c.kind)?.format ?? 'text'
    const body = [
      `    table: ${ident(qualified(t))}`,
      `    professional: ${ident(pro.column.name)}`,
      ...loc ? [`    location: ${ident(loc.column.name)}`] : [],
      `    weekday: ${ident(day.name)}`,
      `    weekdayBase: ${fit.base ?? '0'}`,
      `    start: { column: ${ident(start.name)}, format: ${fmt(start)} }`,
      `    end: { column: ${ident(end.name)}, format: ${fmt(end)} }`,
      ...interval ? [`    interval: ${ident(interval.name)}`] : [],
      ...from ? [`    validFrom: { column: ${ident(from.name)}, format: ${dateFmt(from)} }`] : [],
      ...to ? [`    validTo: { column: ${ident(to.name)}, format: ${dateFmt(to)} }`] : []
    ]
    if (fit.base === undefined) {
      return [`# TODO availability.weekly: \`${qualified(t)}\` looks like working hours by weekday; ${fit.said}: say how its weekday counts (docs/mapping.md), then uncomment`,
        '# availability:', '#   weekly:', ...body.map((l) => `#${l}`)]
    }
    return ['availability:', `  weekly:   # guess: ${fit.said}`, ...body]
  }
  return []
}

/** The weekday numbering under which the sampled appointments fall on days their professional works, if one fits clearly. */
function numbering (t: LiveTable, day: LiveColumn, pro: LiveColumn, samples: Samples, input: WeeklyInput): { base?: Base, said: string } {
  const works = new Set((samples.records(t) ?? []).map((r) => `${asText(r[pro.name.toLowerCase()])}|${asText(r[day.name.toLowerCase()])}`))
  const visits = (samples.records(input.appointment) ?? []).flatMap((r) => {
    const who = r[input.professional.name.toLowerCase()]
    const when = r[input.start.name.toLowerCase()]
    const iso = when === null || when === undefined ? undefined : toIso(asText(when))
    return who === null || who === undefined || iso === undefined || iso < '1900' ? [] : [{ who: asText(who), iso }]
  })
  if (visits.length === 0 || works.size === 0) return { said: 'no sampled appointments to tell how its weekday counts' }
  const fits = BASES.map((base) => ({ base, share: visits.filter((v) => works.has(`${v.who}|${weekday(v.iso, base)}`)).length / visits.length }))
    .sort((a, b) => b.share - a.share)
  const [best, second] = fits
  const pct = (x: number): string => `${Math.round(x * 100)}%`
  const said = `${pct(fits[0].share)} of ${visits.length} sampled appointments fall on a weekday their professional works counting ${SAID[fits[0].base]}` +
    ` (${fits.slice(1).map((f) => `${f.base}: ${pct(f.share)}`).join(', ')})`
  if (best.share < 0.8) return { said }
  // 0 and iso number Monday to Saturday alike: with no Sunday among the rows, either reads them.
  if (second.share === best.share) {
    const pair = [best.base, second.base].sort().join(',')
    return pair === '0,iso' ? { base: '0', said: `${said}; 0 and iso read these rows alike (no Sunday): TODO confirm Sunday's number` } : { said }
  }
  return best.share - second.share >= 0.2 ? { base: best.base, said } : { said }
}
