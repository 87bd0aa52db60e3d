// `ponte <command>`: the clinic-IT toolkit around the server.
//   serve                       start the HTTP server (same as npm start)
//   check    [-m MAP] [-d URL]  validate a mapping; with a database, run every statement against it
//   explain  [-m MAP] [--dialect mssql|mssql-2008|sqlite]   print every compiled statement
//   schema                      print the mapping language's JSON Schema
//   fixtures load FIXTURE DB    write a SQLite database from a fixture file
import { parseArgs } from 'node:util'
import { resolve } from 'node:path'
import { loadMapping, openInstallation, openSample } from './installation.js'
import { compileMapping } from './mapping/compile/index.js'
import { renderStatement } from './mapping/explain.js'
import { mappingJsonSchemaText } from './mapping/json-schema.js'
import { MappingError } from './mapping/errors.js'
import { mssqlDialect } from './sql/mssql.js'
import { sqlite } from './sql/sqlite.js'
import type { Dialect } from './sql/dialect.js'
import { createSqliteFromFixture } from './fixtures/load.js'
import { SAMPLE_MAPPING } from './config.js'
import { checkInstallation } from './check.js'

const DIALECTS: Record<string, Dialect> = {
  mssql: mssqlDialect(),
  'mssql-2008': mssqlDialect({ legacyPaging: true }),
  sqlite
}

async function main (argv: string[]): Promise<number> {
  const [command, ...rest] = argv
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      mapping: { type: 'string', short: 'm' },
      database: { type: 'string', short: 'd' },
      dialect: { type: 'string' }
    }
  })
  const mapping = resolve(values.mapping ?? process.env.MAPPING ?? SAMPLE_MAPPING)
  switch (command) {
    case 'serve':
      await import('./server.js')
      return -1
    case 'schema':
      process.stdout.write(mappingJsonSchemaText())
      return 0
    case 'explain': {
      const dialect = DIALECTS[values.dialect ?? 'mssql']
      if (!dialect) throw new UsageError(`unknown dialect "${values.dialect}" (mssql, mssql-2008, sqlite)`)
      const compiled = compileMapping(loadMapping(mapping), dialect)
      process.stdout.write(compiled.statements().map(renderStatement).join('\n'))
      return 0
    }
    case 'check': {
      const url = values.database ?? process.env.DATABASE_URL
      const inst = url ? await openInstallation(mapping, url) : await openSample(mapping)
      try {
        const report = await checkInstallation(inst)
        process.stdout.write(report.lines.join('\n') + '\n')
        return report.ok ? 0 : 1
      } finally {
        await inst.close()
      }
    }
    case 'fixtures': {
      const [sub, fixture, db] = positionals
      if (sub !== 'load' || !fixture || !db) throw new UsageError('usage: ponte fixtures load FIXTURE.json DATABASE.db')
      createSqliteFromFixture(resolve(fixture), resolve(db))
      process.stdout.write(`wrote ${db}\n`)
      return 0
    }
    default:
      throw new UsageError('usage: ponte serve | check [-m MAPPING] [-d DATABASE_URL] | explain [-m MAPPING] [--dialect mssql|mssql-2008|sqlite] | schema | fixtures load FIXTURE DB')
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).then((code) => { if (code >= 0) process.exitCode = code }, (err: unknown) => {
  if (err instanceof MappingError || err instanceof UsageError) process.stderr.write(`${err.message}\n`)
  else process.stderr.write(`${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
  process.exitCode = err instanceof UsageError ? 2 : 1
})
