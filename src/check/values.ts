// Whether the values Ponte writes fit the columns they land in, read from the live catalogue:
// a key the mapping reads as an integer from a text column (ids compared as numbers, `max`
// taking '9' over '10'), a ref written into a number column though its ids are text, a
// UUID going into a binary column (written as its 16 bytes), and a column shorter than the
// interface lets a name or an e-mail be (longer ones are refused, 400, naming the field); and
// a `max` key over text whose largest key is no number.
import type { MappingModel, TableModel } from '../mapping/model.js'
import type { LiveCatalog, LiveColumn } from '../db/columns.js'
import { idType, isIntegerType, largestCounted, isUnsupported, type CompiledMapping, type CompiledWrites, type InsertPlan, type Reference } from '../mapping/compile/index.js'
import type { Querier } from '../db/database.js'
import { binaryBytes, isBinaryColumn } from '../db/column-values.js'
import { canonical } from './structure.js'
import type { Findings } from './findings.js'

/** The longest value the interface accepts for each free-text client field (src/schemas/queries.ts). */
const INTERFACE_LENGTH = { name: 200, email: 200 } as const

export function checkColumnValues (compiled: Pick<CompiledMapping, 'model' | 'references' | 'writes'>, catalog: LiveCatalog, out: Findings): void {
  const { model, writes } = compiled
  const column = (table: string, name: string): LiveColumn | undefined => catalog.table(table)?.columns.get(name.toLowerCase())
  for (const t of [model.appointment, model.client, ...Object.values(model.lookups)]) if (t) keyFit(t, column, out)
  // What the mapping writes, as the compiler recorded it (compile/references.ts): each column in its table, at its place.
  const written = compiled.references.list.filter((r): r is Reference & { column: string } => r.use === 'write' && r.column !== undefined)
    .map((r) => ({ ...r, path: canonical(model.doc, r.path), live: column(r.table, r.column) }))
  const under = (path: string) => written.filter((w) => w.path === path || w.path.startsWith(`${path}/`))
  for (const w of written) if (w.live && w.written && 'uuid' in w.written) generatedUuid(w.live, w.path, out)
  if (!isUnsupported(writes.client)) {
    for (const field of ['name', 'email'] as const) {
      const v = model.client.fields[field]
      const short = v && under(v.path).find((w) => (v.length ?? w.live?.length ?? Infinity) < INTERFACE_LENGTH[field])
      if (v && short) shorterThanInterface(field, v.length ?? short.live?.length ?? 0, short.live?.name ?? short.column, v.path, out)
    }
    const name = model.client.fields.name
    const narrow = name && under(name.path).find((w) => w.live?.basicPlaneOnly === true)
    if (name && narrow) {
      out.warning(name.path, `column \`${narrow.live?.name ?? narrow.column}\` takes no character beyond U+FFFF (utf8mb3): a name with an emoji is refused (400, naming name); \`ALTER TABLE … CONVERT TO CHARACTER SET utf8mb4\` on a copy first lets them in`)
    }
  }
  const written_ = isUnsupported(writes.appointment) ? [] : Object.keys(writes.appointment.refs)
  for (const name of Object.keys(model.appointment.refs) as (keyof typeof model.appointment.refs)[]) {
    const ref = model.appointment.refs[name]
    const target = name === 'client' ? model.client : model.lookups[name as keyof typeof model.lookups]
    if (!ref || !target || isIntegerType(idType(target.key))) continue
    if (written_.includes(name)) {
      for (const { live } of under(ref.path)) {
        if (live?.kind === 'number') out.problem(ref.path, `${name} ids are text (the key of table \`${target.table}\`), but column \`${live.name}\` holds numbers (${live.declared}): a booking could not store them`)
      }
    }
    if (out.covers(ref.path)) continue
    // Read or not written, the ref is compared with the ids asked for (`?client=`): as numbers, where the column holds them.
    const compared = compiled.references.list.find((r) => r.column !== undefined && r.use !== 'write' && [ref.path, `${ref.path}/column`].includes(canonical(model.doc, r.path)) && column(r.table, r.column)?.kind === 'number')
    const live = compared?.column === undefined ? undefined : column(compared.table, compared.column)
    if (compared && live) {
      out.problem(ref.path, `${name} ids are text (${keyKept(target)}), but column \`${live.name}\` of \`${compared.table}\` holds numbers (${live.declared}): the database compares them as numbers (MariaDB takes '3f2a…' for 3), so an id asked for may match another ${name}'s rows; read the ref from a text column holding the same ids`)
    }
  }
}

/** Where a text key is kept: a uuid in a joined row (`person.uuid`), or the table's own column. */
function keyKept (t: TableModel): string {
  const column = t.key.column
  return column.includes('.') ? `the key \`${column}\`, through a join` : `the key of table \`${t.table}\``
}

// Keys read as integers (the default) from a text column: ids then bind as numbers, and a
// `max` key compares the text ('9' > '10').
function keyFit (t: TableModel, column: (table: string, name: string) => LiveColumn | undefined, out: Findings): void {
  for (const part of t.key.parts) {
    const live = column(t.table, part.column)
    if (live?.kind !== 'text' || !isIntegerType(part.type)) continue
    out.problem(`${t.path}/key`, `column \`${live.name}\` is text (${live.declared}), but the key is read as an integer: declare \`key: { column: ${part.column}, type: text }\`` +
      (t.key.parts.length === 1 ? ' so ids compare as the text they are (and a `max` key counts past 9 and 99)' : ''))
  }
}

// A new UUID per row: into a binary column it goes as its 16 bytes, which a binary column
// shorter than that cannot hold (its size read from the catalogue: MariaDB's type name has
// none).
function generatedUuid (live: LiveColumn, path: string, out: Findings): void {
  if (!isBinaryColumn(live)) return
  const size = binaryBytes(live)
  if (size !== undefined && size < 16) out.problem(path, `a UUID needs 16 bytes, but column \`${live.name}\` holds ${size} (${live.declared}${live.declared.includes('(') ? '' : `(${size})`}): every write of it would be refused`)
  else out.warning(path, `column \`${live.name}\` holds bytes (${live.declared}): each new UUID is written as its 16 bytes, not its 36 characters (the clinic's program must read it so)`)
}

function shorterThanInterface (field: keyof typeof INTERFACE_LENGTH, length: number, column: string, path: string, out: Findings): void {
  out.warning(path, `column \`${column}\` holds at most ${length} characters, and the interface accepts ${field === 'name' ? 'names' : 'e-mail addresses'} of up to ${INTERFACE_LENGTH[field]}: a longer one is refused (400, naming ${field})`)
}

/**
 * A `max` key over a text column counts from the largest key that is a number: one holding
 * letters ('CLN-01') stops every insert. Read as the insert reads it (the statement itself).
 */
export async function checkCountedKeys (model: MappingModel, writes: CompiledWrites, db: Querier, out: Findings): Promise<void> {
  const plans: [TableModel, InsertPlan | undefined][] = [
    [model.client, isUnsupported(writes.client) || isUnsupported(writes.client.insert) ? undefined : writes.client.insert.plan],
    [model.appointment, isUnsupported(writes.appointment) || isUnsupported(writes.appointment.insert) ? undefined : writes.appointment.insert.plan]
  ]
  for (const [t, plan] of plans) {
    if (plan === undefined || !plan.key.increment || isIntegerType(plan.key.keyType) || plan.key.before.length !== 1) continue
    const rows = await db.query(plan.key.before[0]).catch(() => []) // a statement that cannot run is the probes' to report
    const largest = rows.length === 0 ? undefined : plan.key.counted ? largestCounted(rows, plan.key.counted) : rows[0].id
    const number = largest === undefined || largest === null ? undefined : String(largest).trim().slice(plan.key.counted?.prefix.length ?? 0)
    if (number === undefined || /^\d{1,15}$/.test(number)) continue
    out.problem(`${t.path}/write/key`, `the largest key of column \`${plan.key.keyColumn}\` is not a number, so \`max\` cannot count the next one from it and every new ${t.path.split('/').pop() ?? ''} would be refused: use a keyTable or identity key`)
  }
}
