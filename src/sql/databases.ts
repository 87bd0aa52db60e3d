// The databases Ponte serves, one entry each. DATABASE_URL's schemes, `ponte explain
// --dialect`, `ponte fixtures load` and the mapping's per-dialect `sql` keys all derive from
// this list: a new database is a folder src/sql/<name>/ and one entry here.
// Each folder is imported only when used: a network driver weighs 15-35 MB of resident
// memory once loaded, which a SQLite installation would carry for nothing.
import type { Database } from '../db/database.js'
import type { Fixture } from '../fixtures/format.js'
import type { Dialect } from './dialect.js'

export interface DatabaseKind {
  /** What clinic IT calls it, in messages and help. */
  readonly label: string
  /** DATABASE_URL schemes, without the colon. */
  readonly schemes: readonly string[]
  /** A connection to what a DATABASE_URL of one of `schemes` names. */
  open: (url: string) => Promise<Database>
  /** Its SQL, for `ponte explain`; a variant (`mssql-2008`) is SQL a URL option changes. */
  dialect: (variant?: string) => Promise<Dialect>
  readonly variants?: readonly string[]
  /** The fixture into the empty database a URL names; returns where, for a message (no credentials). Absent: no loader. */
  loadFixture?: (fixture: Fixture, url: string) => Promise<string>
}

const KINDS = {
  mssql: {
    label: 'SQL Server',
    schemes: ['mssql', 'sqlserver'],
    open: async (url) => await (await import('./mssql/driver.js')).openMssql(url),
    // legacyPaging=true in the URL: SQL Server 2008 R2, which has no OFFSET … FETCH.
    dialect: async (variant) => (await import('./mssql/dialect.js')).mssqlDialect({ legacyPaging: variant === '2008' }),
    variants: ['2008']
  },
  sqlite: {
    label: 'SQLite',
    schemes: ['sqlite'],
    open: async (url) => (await import('./sqlite/driver.js')).openSqliteUrl(url),
    dialect: async () => (await import('./sqlite/dialect.js')).sqlite,
    loadFixture: async (fixture, url) => await (await import('./sqlite/load.js')).loadFixture(fixture, url)
  },
  mysql: {
    label: 'MariaDB/MySQL',
    schemes: ['mysql', 'mariadb'],
    open: async (url) => await (await import('./mysql/driver.js')).openMysql(url),
    dialect: async () => (await import('./mysql/dialect.js')).mysql,
    loadFixture: async (fixture, url) => {
      await (await import('./mysql/load.js')).loadFixture(fixture, url)
      return serverAddress(url)
    }
  },
  postgres: {
    label: 'PostgreSQL',
    schemes: ['postgres', 'postgresql'],
    open: async (url) => await (await import('./postgres/driver.js')).openPostgres(url),
    dialect: async () => (await import('./postgres/dialect.js')).postgres,
    loadFixture: async (fixture, url) => {
      await (await import('./postgres/load.js')).loadFixture(fixture, url)
      return serverAddress(url)
    }
  }
} satisfies Record<string, DatabaseKind>

/** A dialect's name: `Dialect.name`, a key of a mapping's `sql` value. */
export type DialectName = keyof typeof KINDS

export const DATABASES: Readonly<Record<DialectName, DatabaseKind>> = KINDS

/** In the registry's order; the first is `ponte explain`'s default. */
export const DIALECT_NAMES = Object.keys(DATABASES) as DialectName[]

const EXPLAINED = new Map<string, () => Promise<Dialect>>(DIALECT_NAMES.flatMap((name) => [
  [name, async () => await DATABASES[name].dialect()] as const,
  ...(DATABASES[name].variants ?? []).map((v) => [`${name}-${v}`, async () => await DATABASES[name].dialect(v)] as const)
]))

/** `ponte explain --dialect` choices: each name, followed by its variants (`mssql-2008`). */
export const EXPLAIN_DIALECTS = [...EXPLAINED.keys()]

/** The SQL of one of `EXPLAIN_DIALECTS`. */
export async function explainDialect (choice: string): Promise<Dialect> {
  const dialect = EXPLAINED.get(choice)
  if (dialect === undefined) throw new Error(`unknown dialect "${choice}" (known: ${EXPLAIN_DIALECTS.join(', ')})`)
  return await dialect()
}

/** The database whose scheme a URL starts with (schemes are compared as written). */
export function databaseOf (url: string): { name: DialectName, kind: DatabaseKind } | undefined {
  const scheme = url.slice(0, Math.max(0, url.indexOf(':')))
  const name = DIALECT_NAMES.find((n) => DATABASES[n].schemes.includes(scheme))
  return name === undefined ? undefined : { name, kind: DATABASES[name] }
}

/** `mssql:, sqlserver:, … or postgresql:`: the schemes of every database, or of those `which` keeps. */
export function schemeList (which: (kind: DatabaseKind) => boolean = () => true): string {
  const schemes = DIALECT_NAMES.filter((n) => which(DATABASES[n])).flatMap((n) => DATABASES[n].schemes.map((s) => `${s}:`))
  return schemes.length < 2 ? schemes.join('') : `${schemes.slice(0, -1).join(', ')} or ${schemes[schemes.length - 1]}`
}

/** `mysql://host:3306/clinic`: where a server URL points, without user, password or options. */
function serverAddress (url: string): string {
  const u = new URL(url)
  return `${u.protocol}//${u.host}${u.pathname}`
}
