// How the clinic's own rows spell a text birthday (`99.99.9999`), so a write probe that stores
// another spelling is a problem at the birthday's line, never "read back as stored".
import type { Database } from '../db/database.js'
import type { CompiledMapping } from '../mapping/compile/index.js'
import { textShape } from '../normalise/text.js'
import { scanTable } from './table-scan.js'

/** Spellings (shapes) of the stored text birthdays and how many rows hold each. */
export type Spellings = Map<string, number>

/** The first rows' spellings (a sample bounds the probe: the data pass reads the whole table). */
export async function storedSpellings (compiled: CompiledMapping, db: Database, rows = 2000): Promise<Spellings | undefined> {
  const birthday = compiled.model.client.fields.birthday
  if (birthday?.format !== 'text' && birthday?.format !== 'dmy' && birthday?.format !== 'ymd') return undefined
  const shapes: Spellings = new Map()
  let seen = 0
  // Stopped by rows read, never by time: the clock moves past its deadline once `rows` are seen.
  const clock = { deadline: 0, now: () => seen >= rows ? 1 : 0, batchRows: Math.min(rows, 500), progressEveryMs: Number.POSITIVE_INFINITY }
  try {
    await scanTable(db, compiled.check.clients(), (row) => {
      seen++
      if (row.birthdayShape !== undefined) shapes.set(row.birthdayShape, (shapes.get(row.birthdayShape) ?? 0) + 1)
    }, clock)
  } catch {
    return undefined // the data pass reports a table it cannot read
  }
  return shapes
}

/** Why a written birthday is spelt unlike most stored ones (with the key that says it), or undefined. */
export function unlikeStored (written: unknown, shapes: Spellings | undefined): string | undefined {
  if (typeof written !== 'string' || shapes === undefined) return undefined
  const shape = textShape(written)
  const total = [...shapes.values()].reduce((a, b) => a + b, 0)
  const [common, n] = [...shapes].sort((a, b) => b[1] - a[1])[0] ?? ['', 0]
  // Against the majority, not mere presence: after a first write in another spelling went live,
  // that one row must not silence the finding.
  if (shape === common || n * 2 <= total) return undefined
  const same = shapes.get(shape) ?? 0
  const dmy = /^99([./-])99\1(9999)$/.exec(common)
  const fix = dmy
    ? `give \`separator: '${dmy[1]}'\` beside \`format: dmy\``
    : common === '9999-99-99' ? 'give `format: text` (YYYY-MM-DD)' : common === '99999999' ? 'give `format: ymd` (YYYYMMDD)' : 'give the `format` the rows use'
  return `a write stores \`${shape}\` but ${n} of ${total} stored birthdays are spelt \`${common}\` (${same === 0 ? 'none' : `only ${same}`} \`${shape}\`): the clinic's system would meet two spellings in one column; ${fix}`
}
