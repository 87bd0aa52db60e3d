// `ponte fixtures load|dump`: sample databases for tests and demos, in and out.
import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Command } from 'commander'
import { cannotLoadInto, LOADABLE_SCHEMES, loadFixtureInto } from '../db/load-fixture.js'
import { dumpFixture } from '../toolkit/fixtures/dump.js'
import { dayOption, DB_FLAGS, mappingOption, mappingPath, open, UsageError } from './usage.js'

export function fixturesCommand (cli: Command): void {
  const fixtures = cli.command('fixtures').description('fixture files: sample databases for tests and demos')
  fixtures.command('load')
    .description('load a fixture into a database: a new file (SQLite; replaced), or an existing empty database on a server')
    .argument('<fixture>', 'the fixture file (.json or .json.gz) or a folder written by fixtures dump')
    .argument('[database]', 'the SQLite file to write (replaced); or give --db')
    .option('-d, --db <url>', `where to load it (${LOADABLE_SCHEMES})`)
    .action(async (fixture: string, database: string | undefined, o: { db?: string }) => {
      const target = o.db ?? (database !== undefined ? `sqlite:${database}` : undefined)
      if (!target) throw new UsageError(`fixtures load: give the database file or ${DB_FLAGS}`)
      const refused = cannotLoadInto(target)
      if (refused !== undefined) throw new UsageError(refused)
      const source = resolve(fixture)
      const written = await loadFixtureInto(target, statSync(source, { throwIfNoEntry: false })?.isDirectory() ? join(source, 'fixture.json') : source)
      process.stdout.write(`wrote ${written}\n`)
    })

  fixtures.command('dump')
    .description('write what the mapping reads from a database as a fixture, optionally anonymised')
    .addOption(mappingOption())
    .requiredOption('-d, --db <url>', 'the clinic database')
    .requiredOption('-o, --out <dir>', 'the folder to write fixture.json into')
    .option('--from <date>', 'only appointments from this day (and the clients they name)')
    .option('--to <date>', 'only appointments up to this day')
    .option('--anonymize', 'replace names, phones, CPFs, e-mails, birthdays and notes with made-up values of the same shape')
    .action(async (o: { mapping?: string, db: string, out: string, from?: string, to?: string, anonymize?: boolean }) => {
      dayOption('--from', o.from)
      dayOption('--to', o.to)
      const inst = await open(mappingPath(o.mapping), o.db)
      try {
        const { fixture, rows } = await dumpFixture(inst, { from: o.from, to: o.to, anonymize: o.anonymize === true })
        mkdirSync(o.out, { recursive: true })
        writeFileSync(join(o.out, 'fixture.json'), JSON.stringify(fixture))
        process.stderr.write(`wrote ${join(o.out, 'fixture.json')}: ${fixture.tables.length} tables, ${rows} rows${o.anonymize ? ', anonymised' : ''}\n`)
      } finally {
        await inst.close()
      }
    })
}
