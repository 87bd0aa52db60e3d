// Where a system names its status codes: a table holding each code beside a label (OSCAR's
// `appointment_status`: `status`, `description`), or one list of a shared table of lists
// (OpenEMR's `list_options` rows whose `list_id` is `apptstat`: `option_id`, `title`). Found
// from the data: the table (or list) whose codes are the appointment's stored ones, named as
// a status somewhere (its table, its code column or its list), so a table of small numbers
// that merely happens to hold 1, 2 and 5 (Open Dental's definitions) is never taken.
import type { LiveCatalog, LiveColumn, LiveTable } from '../../db/columns.js'
import type { Samples } from './sample.js'
import { columns, qualified } from './tables.js'
import { asText } from './values.js'

export interface CodeLabels {
  /** Where the labels were read, for the draft's comment: `list_options.title (list_id = apptstat)`. */
  source: string
  /** Every code of the table (or list) with its label, in the table's order. */
  labels: Map<string, string>
  /** Some stored codes are a table code and a modifier after it (OSCAR's `BV`: `B` billed, verified): `match: prefix`. */
  prefix: boolean
}

/** A table, list or code column named as a status: `appointment_status`, `apptstat`, `STATUS`, `situacao`. */
const STATUS_NAME = /(stat|situa|estado|state)/i
const LABEL_NAME = /(title|label|desc|name|nome|texto|text|meaning|signific|rotulo)/i
/** More codes than a status list holds: a table of something else. */
const MOST_CODES = 80

interface Found { labels: CodeLabels, score: number }

/** The stored codes' labels, from the best table or list holding them; undefined when none is named as a status and holds most of them. */
export function codeLabels (catalog: LiveCatalog, samples: Samples, appointment: LiveTable, stored: Array<{ code: string, n: number }>): CodeLabels | undefined {
  const codes = stored.map((s) => ({ code: s.code.trim(), n: s.n })).filter((s) => s.code !== '')
  const total = codes.reduce((a, s) => a + s.n, 0)
  if (codes.length === 0 || total === 0) return undefined
  const found: Found[] = []
  for (const u of catalog.tables) {
    if (u === appointment) continue
    const rows = samples.records(u)
    if (rows === undefined || rows.length === 0) continue
    const texts = columns(u).filter((c) => c.kind === 'text' || c.kind === 'number' || c.kind === 'unknown')
    for (const code of texts) {
      // The whole table, then each list of a column that sorts rows into lists (`list_id`).
      const groups: Array<{ column?: LiveColumn, value?: string }> = [{}]
      for (const g of texts.filter((g) => g !== code && g.kind !== 'number')) {
        const values = new Set(rows.map((r) => r[g.name.toLowerCase()]).filter((v) => v !== null && v !== undefined).map(asText))
        if (values.size >= 2 && values.size < rows.length / 2) for (const value of values) groups.push({ column: g, value })
      }
      for (const group of groups) {
        const named = STATUS_NAME.test(u.name) || STATUS_NAME.test(code.name) || (group.value !== undefined && STATUS_NAME.test(group.value))
        if (!named) continue
        const inGroup = group.column === undefined ? rows : rows.filter((r) => asText(r[(group.column as LiveColumn).name.toLowerCase()]) === group.value)
        const tableCodes = [...new Set(inGroup.map((r) => r[code.name.toLowerCase()]).filter((v) => v !== null && v !== undefined).map(asText).filter((v) => v !== ''))]
        if (tableCodes.length < 2 || tableCodes.length > MOST_CODES || tableCodes.length < inGroup.length * 0.9) continue
        const exact = new Set(tableCodes)
        let hit = 0
        let prefixed = 0
        for (const s of codes) {
          if (exact.has(s.code)) hit += s.n
          else if (tableCodes.some((c) => s.code.startsWith(c))) prefixed += s.n
        }
        if ((hit + prefixed) / total < 0.8) continue
        const label = labelColumn(u, inGroup, code, group.column)
        if (label === undefined) continue
        const labels = new Map<string, string>()
        for (const r of inGroup) {
          const c = asText(r[code.name.toLowerCase()])
          if (c !== '' && !labels.has(c)) labels.set(c, asText(r[label.name.toLowerCase()]))
        }
        const where = group.column === undefined ? '' : ` (${group.column.name} = ${group.value ?? ''})`
        found.push({ labels: { source: `${qualified(u)}.${label.name}${where}`, labels, prefix: prefixed > 0 }, score: (hit * 2 + prefixed) / total - (group.column === undefined ? 0 : 0.01) })
      }
    }
  }
  return found.sort((a, b) => b.score - a.score)[0]?.labels
}

/** Words, not a colour (`#FDFEC7`) or a file (`noshow.gif`): a label may start with its code's sign (`% Cancelado < 24h`). */
const wordsLike = (v: string): boolean => /\p{L}{3}/u.test(v) && v.length <= 80 && !/^#?[0-9a-f]{6}$/i.test(v) && !/\.\w{2,4}$/.test(v)

/** The column of words beside the codes: named as a label, or else the one whose values are most often words. */
function labelColumn (u: LiveTable, rows: Array<Record<string, unknown>>, code: LiveColumn, group: LiveColumn | undefined): LiveColumn | undefined {
  const wordy = (c: LiveColumn): number => {
    const values = rows.map((r) => r[c.name.toLowerCase()]).filter((v) => v !== null && v !== undefined).map(asText)
    return values.length === 0 ? 0 : values.filter(wordsLike).length / values.length
  }
  const options = columns(u).filter((c) => c !== code && c !== group && c.kind === 'text').map((c) => ({ c, words: wordy(c) })).filter((x) => x.words >= 0.8)
  return (options.find((x) => LABEL_NAME.test(x.c.name)) ?? options.sort((a, b) => b.words - a.words)[0])?.c
}
