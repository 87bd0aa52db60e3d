// Issue 26: the databases are listed once, in src/sql/databases.ts; DATABASE_URL (connect and
// the configuration) and the mapping's per-dialect `sql` keys derive from it (the command's
// choices: test/unit/cli.test.ts). A new database is a folder and one entry: these fail
// when the two drift apart or a second list appears.
import t from 'tap'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import BetterSqlite3 from 'better-sqlite3'
import { DATABASES, DIALECT_NAMES } from '../../../src/sql/databases.js'
import { connect } from '../../../src/db/connect.js'
import { ConfigError, loadConfig } from '../../../src/config.js'
import { mappingJsonSchema } from '../../../src/mapping/json-schema.js'
import { parseMapping } from '../../../src/mapping/load.js'
import { MappingError } from '../../../src/mapping/errors.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const SCHEMES = DIALECT_NAMES.flatMap((name) => DATABASES[name].schemes)

t.test('a folder src/sql/<name>/ for every entry, and an entry for every folder', async (t) => {
  const folders = readdirSync(join(root, 'src/sql'), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)
  t.same(folders.sort(), [...DIALECT_NAMES].sort())
})

t.test('connect opens every registered scheme with its folder\'s driver', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-databases-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'legacy.db')
  new BetterSqlite3(file).close()
  for (const name of DIALECT_NAMES) {
    for (const scheme of DATABASES[name].schemes) {
      // `scheme:///path`: a file to SQLite; to a server (connected to on first use), a database on the local host.
      const db = await connect(`${scheme}://${file}`)
      t.equal(db.dialect.name, name, `${scheme}: opened by src/sql/${name}/`)
      await db.close()
    }
  }
})

t.test('any other scheme is refused, by connect and at start, with every registered one named', async (t) => {
  const named = (message: string): boolean => SCHEMES.every((s) => message.includes(`${s}:`))
  const refused = await connect('oracle://db/clinic').then(() => 'opened', (err: Error) => err.message)
  t.match(refused, /^DATABASE_URL: unsupported scheme in "oracle:…"/)
  t.ok(named(refused), refused)

  const problems = (url: string): string[] => {
    try {
      loadConfig({ DATABASE_URL: url, MAPPING: 'mappings/clinica-sorriso.yaml' })
      return []
    } catch (err) {
      return (err as ConfigError).problems.filter((p) => p.startsWith('DATABASE_URL'))
    }
  }
  const [atStart] = problems('oracle://db/clinic')
  t.match(atStart, /got "oracle:…"$/)
  t.ok(named(atStart), atStart)
  for (const scheme of SCHEMES) t.same(problems(`${scheme}://db/clinic`), [], `${scheme}: accepted at start`)
})

t.test('a mapping\'s `sql` value takes one key per registered database, and `default`', async (t) => {
  const defs = (mappingJsonSchema() as { $defs: Record<string, any> }).$defs
  const sql = defs.Value.anyOf.find((b: any) => b.properties?.sql).properties.sql
  t.same(Object.keys(sql.properties), [...DIALECT_NAMES, 'default'])
  t.equal(sql.additionalProperties, false)

  const mapping = (keys: string): string => `version: 1
installation: test
resources:
  appointment:
    table: dbo.AGENDA
    key: ID
    start: { date: DATA, hour: HORA }
    state: { column: ST, map: { A: WAITING } }
  client:
    table: dbo.PAC
    key: ID
    fields: { name: { sql: { ${keys} } } }
`
  t.doesNotThrow(() => parseMapping(mapping([...DIALECT_NAMES, 'default'].map((k) => `${k}: NOME`).join(', ')), 'm.yaml'))
  // A misspelt key, once ignored, left the database it meant to the `default` expression unnoticed.
  const err = t.throws(() => parseMapping(mapping('sqlsrv: NOME, default: NOME'), 'm.yaml')) as unknown
  t.ok(err instanceof MappingError)
  t.match((err as MappingError).message, /\/resources\/client\/fields\/name\/sql\/sqlsrv: unknown key/)
})

t.test('no other file names two databases in code (comments aside)', async (t) => {
  const name = new RegExp(`\\b(${SCHEMES.join('|')})\\b`, 'g')
  const files = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return files(path)
    return /\.(ts|js|mjs)$/.test(e.name) ? [path] : []
  })
  const found: string[] = []
  // Not bench/: it measures each server database against a baseline written for its own driver (issue 29).
  for (const file of ['src', 'bin', 'scripts'].flatMap((d) => files(join(root, d)))) {
    const rel = relative(root, file).split('\\').join('/')
    // The registry, and each folder speaking of its own database.
    if (rel === 'src/sql/databases.ts' || /^src\/sql\/[^/]+\//.test(rel)) continue
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return
      const names = new Set(line.match(name) ?? [])
      if (names.size > 1) found.push(`${rel}:${i + 1}: ${[...names].join(', ')}`)
    })
  }
  t.same(found, [], 'lists of databases derive from src/sql/databases.ts')
})
