// `ponte <command>`: the clinic-IT toolkit around the server (commander; `ponte help <command>`).
// Exit codes, for scripts: 0 done / clean, 1 problems found (or the command failed),
// 2 wrong usage or the database cannot be reached.
import { join, resolve } from 'node:path'
import { Command, CommanderError, Option } from 'commander'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { loadMapping, openInstallation, openSample, sampleFixture, type Installation } from './installation.js'
import { compileMapping } from './mapping/compile/index.js'
import { renderStatement } from './mapping/explain.js'
import { mappingJsonSchemaText } from './mapping/json-schema.js'
import { MappingError } from './mapping/errors.js'
import { EXPLAIN_DIALECTS, explainDialect } from './sql/databases.js'
import { cannotLoadInto, LOADABLE_SCHEMES, loadFixtureInto } from './db/load-fixture.js'
import { SAMPLE_MAPPING } from './config.js'
import { checkInstallation } from './check/index.js'
import { runConformance } from './toolkit/conformance/run.js'
import { draftMapping, schemaLink } from './toolkit/init.js'
import { connect } from './db/connect.js'
import { dumpFixture } from './toolkit/fixtures/dump.js'
import { replay } from './toolkit/capture/replay.js'
import { httpSender } from './toolkit/conformance/http.js'
import { readCatalog } from './db/columns.js'
import type { Database } from './db/database.js'
import { parseMapping } from './mapping/load.js'

/** Usage mistakes: one line, exit 2. */
class UsageError extends Error {}
/** The database cannot be reached: exit 2, so a script can tell it from a mapping with problems. */
class UnreachableError extends Error {}

const mappingOption = () => new Option('-m, --mapping <file>', 'the mapping file (default: $MAPPING, else the bundled sample)')
const databaseOption = () => new Option('-d, --db <url>', 'the clinic database (default: $DATABASE_URL, else a fresh copy of the sample)')
// Usage lines name an option as `--help` shows it, so the reader finds it there.
const DB_FLAGS = databaseOption().flags

function mappingPath (given?: string): string {
  return resolve(given ?? process.env.MAPPING ?? SAMPLE_MAPPING)
}

async function open (mapping: string, url: string | undefined): Promise<Installation> {
  loadMapping(mapping) // a mistake in the file itself is reported as such (exit 1), before any database
  if (!url && !existsSync(sampleFixture(mapping))) throw new UsageError(`no database: give ${DB_FLAGS} or set DATABASE_URL`)
  try {
    return url ? await openInstallation(mapping, url, undefined, { structural: 'skip' }) : await openSample(mapping, { structural: 'skip' })
  } catch (err) {
    if (err instanceof MappingError) throw err
    throw new UnreachableError(`cannot open the database: ${(err as Error).message}`)
  }
}

// The package's own version: package.json is one folder up from src/ and from dist/ alike.
const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version

/** `done(code)`: what the command found (1: problems); main returns it as the exit code. */
export function program (done: (code: number) => void = () => {}): Command {
  const cli = new Command('ponte')
    .description('Ponte: the Scheduling Integration Interface over a clinic\'s legacy SQL database')
    .version(VERSION, '-V, --version', 'print the version of Ponte')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ outputError: (text, write) => write(`${text.trim().replace(/^error: /, 'ponte: ')} (see ponte --help)\n`) })

  cli.command('serve')
    .description('start the HTTP server (same as npm start; configured by the environment)')
    .action(async () => { await import('./server.js'); return await new Promise<never>(() => {}) })

  cli.command('check')
    .description('check a mapping against the live database: tables, columns and converters, every statement (writes rolled back), the stored data')
    .addOption(mappingOption())
    .addOption(databaseOption())
    .option('--json', 'print the findings as JSON (for scripts)')
    .option('--today <date>', 'the day the statement probes ask about (YYYY-MM-DD; default: today at the clinic); the data scans read whole tables')
    .addOption(new Option('--scan-seconds <seconds>', 'time for the whole-table scans of the stored data; a scan cut short says how far it got').default(30).argParser(positiveSeconds('--scan-seconds')))
    .addOption(new Option('--budget <seconds>', 'the old name of --scan-seconds').argParser(positiveInt('--budget')))
    .option('--quiet', 'no progress on stderr')
    .option('--no-write-probe', 'do not perform each write path in a rolled-back transaction (for clinics that forbid it); check then says writes were not proven')
    .action(async (o: { mapping?: string, db?: string, json?: boolean, today?: string, scanSeconds: number, budget?: number, quiet?: boolean, writeProbe: boolean }) => {
      if (o.today !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(o.today)) throw new UsageError(`--today: "${o.today}" is not a date (YYYY-MM-DD)`)
      const inst = await open(mappingPath(o.mapping), o.db ?? process.env.DATABASE_URL)
      try {
        const progress = o.quiet || o.json || !process.stderr.isTTY ? undefined : (what: string) => { process.stderr.write(`  … ${what}\n`) }
        // Long scans say how far they are even without a terminal (a scheduled job's log).
        const scanProgress = o.quiet ? undefined : (line: string) => { process.stderr.write(`  … ${line}\n`) }
        const report = await checkInstallation(inst, { today: o.today, budgetMs: (o.budget ?? o.scanSeconds) * 1000, progress, scanProgress, writeProbe: o.writeProbe })
          .catch((err: unknown) => { throw new UnreachableError(`cannot read the database: ${(err as Error).message}`) })
        if (o.json) process.stdout.write(JSON.stringify({ ok: report.ok, mapping: inst.model.file, findings: report.findings }, null, 2) + '\n')
        else process.stdout.write(report.lines.join('\n') + '\n')
        done(report.ok ? 0 : 1)
      } finally {
        await inst.close()
      }
    })

  cli.command('explain')
    .description('print every statement the mapping compiles to')
    .addOption(mappingOption())
    .addOption(new Option('--dialect <name>', 'the SQL dialect').choices(EXPLAIN_DIALECTS).default(EXPLAIN_DIALECTS[0]))
    .action(async (o: { mapping?: string, dialect: string }) => {
      const compiled = compileMapping(loadMapping(mappingPath(o.mapping)), await explainDialect(o.dialect))
      process.stdout.write(compiled.statements().map(renderStatement).join('\n'))
    })

  cli.command('schema')
    .description('print the mapping language\'s JSON Schema (for editors: see docs/mapping.md)')
    .action(() => { process.stdout.write(mappingJsonSchemaText()) })

  cli.command('conformance')
    .description('run the interface contract checks against a running installation')
    .requiredOption('--base <url>', 'where it answers, e.g. http://localhost:3000')
    .requiredOption('--key <key>', 'an API key it accepts')
    .option('--writes', 'also create and change data (clients, bookings): only on a test copy')
    .option('--country <code>', 'the mapping\'s phone.defaultCountry, whose mobile a new client registers with (default: the country most stored phones have)')
    .option('--json', 'print the results as JSON')
    .action(async (o: { base: string, key: string, writes?: boolean, country?: string, json?: boolean }) => {
      let base: URL
      try { base = new URL(o.base) } catch { throw new UsageError(`--base: "${o.base}" is not a URL`) }
      if (o.country !== undefined && !/^[A-Za-z]{2}$/.test(o.country)) throw new UsageError(`--country: "${o.country}" is not a two-letter country code`)
      const results = await runConformance({ base: base.toString().replace(/\/$/, ''), key: o.key, writes: o.writes === true, ...(o.country !== undefined ? { country: o.country } : {}) },
        o.json ? undefined : (line) => { process.stdout.write(line + '\n') })
      if (o.json) process.stdout.write(JSON.stringify(results, null, 2) + '\n')
      done(results.failed === 0 ? 0 : 1)
    })

  cli.command('init')
    .description('write a draft mapping from a live database (every guess commented; then run ponte check)')
    .requiredOption('-d, --db <url>', 'the clinic database')
    .option('-o, --out <file>', 'where to write the draft (default: print it)')
    .option('--installation <name>', 'a name for logs', 'my-clinic')
    .option('--force', 'replace --out if it exists')
    .action(async (o: { db: string, out?: string, installation: string, force?: boolean }) => {
      if (o.out && existsSync(o.out) && !o.force) throw new UsageError(`--out: ${o.out} exists (add --force to replace it)`)
      let db: Database
      try { db = await connect(o.db) } catch (err) { throw new UnreachableError(`cannot open the database: ${(err as Error).message}`) }
      try {
        const catalog = await readCatalog(db).catch((err: unknown) => { throw new UnreachableError(`cannot read the database catalog: ${(err as Error).message}`) })
        const draft = await draftMapping(catalog, o.installation, async (table, column) => {
          const d = db.dialect
          const col = d.column('t', column)
          const sql = d.select({
            columns: [{ expr: col, alias: 'code' }, { expr: d.count(), alias: 'n' }],
            from: { table: d.table(table), alias: 't' },
            joins: [],
            where: [d.isNotNull(col)],
            groupBy: [col],
            orderBy: [d.descending(d.count())]
          })
          const rows = await db.query({ name: 'init.codes', sql, params: [] })
          return rows.slice(0, 50).map((r) => ({ code: String(r.code), n: Number(r.n) }))
        }, schemaLink(o.out))
        parseMapping(draft.yaml, o.out ?? 'draft.yaml') // the draft must validate: a failure here is ours
        if (o.out) {
          writeFileSync(o.out, draft.yaml)
          process.stderr.write(`wrote ${o.out}: ${Object.entries(draft.tables).map(([r, t]) => `${r} ← ${t}`).join(', ')}\nnext: ponte check -m ${o.out} -d '${o.db}'\n`)
        } else {
          process.stdout.write(draft.yaml)
        }
      } finally {
        await db.close()
      }
    })

  cli.command('replay')
    .description('send a capture\'s requests (CAPTURE_DIR) again and show where the answers differ')
    .argument('<dir>', 'the capture folder')
    .requiredOption('--base <url>', 'where the installation to compare answers')
    .requiredOption('--key <key>', 'an API key it accepts')
    .option('--json', 'print the result as JSON')
    .action(async (dir: string, o: { base: string, key: string, json?: boolean }) => {
      let base: URL
      try { base = new URL(o.base) } catch { throw new UsageError(`--base: "${o.base}" is not a URL`) }
      if (!existsSync(dir)) throw new UsageError(`${dir}: no such folder`)
      const result = await replay(dir, httpSender(base.origin, o.key), o.json ? undefined : (line) => { process.stdout.write(line + '\n') })
      if (o.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n')
      done(result.different === 0 ? 0 : 1)
    })

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
      for (const [name, v] of [['--from', o.from], ['--to', o.to]] as const) {
        if (v !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(v)) throw new UsageError(`${name}: "${v}" is not a date (YYYY-MM-DD)`)
      }
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
  return cli
}

function positiveSeconds (name: string) {
  return (value: string): number => {
    if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0) throw new UsageError(`${name}: "${value}" is not a number of seconds`)
    return Number(value)
  }
}

function positiveInt (name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${name}: "${value}" is not a whole number of seconds`)
    return Number(value)
  }
}

export async function main (argv: string[]): Promise<number> {
  let code = 0
  const cli = program((c) => { code = c })
  try {
    await cli.parseAsync(argv, { from: 'user' })
    return code
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help, `help` and --version are not errors; commander already printed what was asked.
      // Help shown because no command was given (exit code 1 from commander) is wrong usage.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return 0
      if (err.code === 'commander.help') return err.exitCode === 0 ? 0 : 2
      return 2
    }
    if (err instanceof UsageError || err instanceof UnreachableError) {
      process.stderr.write(`ponte: ${err.message}\n`)
      return 2
    }
    if (err instanceof MappingError) {
      process.stderr.write(`${err.message}\n`)
      return 1
    }
    process.stderr.write(`ponte: ${err instanceof Error ? err.message : String(err)}\n`)
    return 1
  }
}

if (process.argv[1] && /cli\.[jt]s$/.test(process.argv[1])) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code }, () => { process.exitCode = 1 })
}
