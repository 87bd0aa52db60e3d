// What every grower shares: seeded randomness keyed by a value (so a phone or CPF typed twice in
// the sample is still typed twice, in its two spellings, in each grown copy), digit
// substitution that keeps a value's mask, padding and prefixes, and the writers (SQLite
// streamed in one transaction with prepared inserts; MariaDB/PostgreSQL through their loaders).
import { rmSync, renameSync } from 'node:fs'
import Database from 'better-sqlite3'
import type { Fixture, FixtureTable } from '../../src/fixtures/format.js'
import { loadIntoSqlite, sqliteTableName } from '../../src/sql/sqlite/load.js'
import { randomness, toDate, iso } from '../../fixtures/generator-kit.js'

export { randomness }
export type Rng = ReturnType<typeof randomness>

export interface GrowOptions {
  clients: number
  appointments: number
  professionals: number
  seed: number
  /** The day W1 lists, planted with `busyDayAppointments` whatever the total. */
  busyDay: string
  busyDayAppointments: number
  /** First and last day of the appointments: two years around the sample's "today". */
  from: string
  to: string
  progress?: (line: string) => void
}

/** A grown installation: its small tables whole, its large ones as row streams. */
export interface Grown {
  name: string
  small: FixtureTable[]
  /** Tables with their rows produced lazily (in insertion order), for writers that stream. */
  large: { table: FixtureTable, rows: () => Iterable<unknown[]> }[]
  /** Tables that need the large ones generated first (key table counters, schedules). */
  after: () => FixtureTable[]
  /** What the bench needs to know about the data: ids, terms, counts. */
  facts: Record<string, unknown>
}

/** FNV-1a over a string: the seed of one value's own randomness. */
export function hash32 (text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) }
  return h >>> 0
}

/** Random digits decided by (value, generation, seed) alone. */
export function keyedDigits (key: string, n: number): string {
  const r = randomness(hash32(key))
  let out = ''
  for (let i = 0; i < n; i++) out += String(Math.floor(r.rand() * 10))
  return out
}

/** `digits` written over the digits of `template`, in order: masks, spaces and padding stay. */
export function overDigits (template: string, digits: string): string {
  let i = 0
  return template.replace(/\d/g, (d) => i < digits.length ? digits[i++]! : d)
}

/**
 * A phone typed as `template`, with its subscriber number replaced: country, area code, the
 * mobile's leading 9 and first digit, and any extension stay as typed; the last 7 digits of the
 * number itself (4 outside Brazil) are new, decided by those 7 digits, the generation and the seed, so the same
 * number typed twice (or with and without the ninth digit) stays the same number.
 */
export function regrowPhone (template: string | null, generation: number, seed: number): string | null {
  if (template === null) return null
  const ext = template.search(/[A-Za-z]/)
  const main = ext < 0 ? template : template.slice(0, ext)
  const tail = ext < 0 ? '' : template.slice(ext)
  const ds = main.replace(/\D/g, '')
  if (ds.length < 8) return template
  // Outside Brazil (+1 …) only the line number's last 4 digits: exchanges are not all valid.
  const n = /^\s*\+/.test(main) && !/^\s*\+\s*55/.test(main) ? 4 : 7
  const keep = ds.slice(0, ds.length - n)
  const fresh = keyedDigits(`phone/${ds.slice(-n)}/${generation}/${seed}`, n)
  return overDigits(main, keep + fresh) + tail
}

/** A valid CPF decided by (old digits, generation, seed), written into the old one's mask. */
export function regrowCpf (template: string | null, generation: number, seed: number, validCpf: (digits: (n: number) => string) => string): string | null {
  if (template === null) return null
  const ds = template.replace(/\D/g, '')
  if (ds.length !== 11) return template
  const r = randomness(hash32(`cpf/${ds}/${generation}/${seed}`))
  return overDigits(template, validCpf(r.digits))
}

/** Words of legacy names by how they were typed: Title Case, UPPER, UPPER without accents. */
export function nameStyle (word: string): 'title' | 'upper' | 'plain' {
  if (word !== word.toUpperCase()) return 'title'
  return /[^\p{ASCII}]/u.test(word) ? 'upper' : word.normalize('NFD').replace(/[\u0300-\u036f]/g, '') === word ? 'plain' : 'upper'
}

export const shiftDay = (day: string, days: number): string => iso(new Date(toDate(day).getTime() + days * 86_400_000))
/** 'YYYY-MM-DD HH:MM:SS' moved by whole days. */
export const shiftStamp = (stamp: string | null, days: number): string | null =>
  stamp === null ? null : `${shiftDay(stamp.slice(0, 10), days)}${stamp.slice(10)}`

/** Solves, by bisection, the factor k for which Σ min(1, k·w)·cap = target (how densely to book). */
export function densityFactor (days: { weight: number, capacity: number }[], target: number): number {
  const booked = (k: number): number => days.reduce((s, d) => s + Math.min(1, k * d.weight) * d.capacity, 0)
  let lo = 0
  let hi = 1
  while (booked(hi) < target && hi < 1e6) hi *= 2
  for (let i = 0; i < 60; i++) { const mid = (lo + hi) / 2; if (booked(mid) < target) lo = mid; else hi = mid }
  return hi
}

/**
 * Writes a grown installation into a new SQLite file: tables and indexes as the sample loader
 * declares them, indexes dropped while the rows go in (one transaction, prepared inserts,
 * journal off) and built again at the end. Written to `file.partial` and renamed, so a cache
 * never holds half a file.
 */
export function writeSqlite (grown: Grown, file: string, progress: (line: string) => void = () => {}): void {
  const partial = `${file}.partial`
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(partial + suffix, { force: true })
  const db = new Database(partial)
  try {
    db.pragma('journal_mode = OFF')
    db.pragma('synchronous = OFF')
    db.pragma('cache_size = -200000')
    const empty = grown.large.map(({ table }) => ({ ...table, rows: [] }))
    loadIntoSqlite(db, { name: grown.name, tables: [...grown.small, ...empty] })
    const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL").all() as { name: string, sql: string }[]
    for (const ix of indexes) db.exec(`DROP INDEX "${ix.name}"`)
    for (const { table, rows } of grown.large) {
      const name = sqliteTableName(table.name)
      const insert = db.prepare(`INSERT INTO "${name}" VALUES (${table.columns.map(() => '?').join(', ')})`)
      let n = 0
      const started = Date.now()
      db.transaction(() => {
        for (const row of rows()) {
          insert.run(row as unknown[])
          if (++n % 100_000 === 0) progress(`${table.name}: ${n.toLocaleString('en')} rows (${((Date.now() - started) / 1000).toFixed(1)} s)`)
        }
      })()
      progress(`${table.name}: ${n.toLocaleString('en')} rows written`)
    }
    const tail = grown.after()
    loadIntoSqlite(db, { name: grown.name, tables: tail.map((t) => ({ ...t, indexes: [] })) })
    progress(`building ${indexes.length} indexes`)
    for (const ix of indexes) db.exec(ix.sql)
    const tailIndexes = tail.flatMap((t) => (t.indexes ?? []).map((cols) => ({ t: sqliteTableName(t.name), cols })))
    for (const { t, cols } of tailIndexes) db.exec(`CREATE INDEX "ix_${t}_${cols.join('_')}" ON "${t}" (${cols.map((c) => `"${c}"`).join(', ')})`)
    db.exec('ANALYZE')
    db.pragma('journal_mode = DELETE')
  } finally {
    db.close()
  }
  renameSync(partial, file)
}

/** The whole installation in memory, as a fixture, for the MariaDB and PostgreSQL loaders. */
export function toFixture (grown: Grown): Fixture {
  const large = grown.large.map(({ table, rows }) => ({ ...table, rows: [...rows()] }))
  return { name: grown.name, tables: [...grown.small, ...large, ...grown.after()] }
}

export type Grow = (sample: Fixture, o: GrowOptions) => Grown
