// The `ponte` command as clinic IT meets it: help on every command, one clear line and exit 2
// for usage mistakes, exit 0 / 1 / 2 from check, JSON for scripts, mistakes in the file at
// their line.
import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { childEnv } from '../helpers/child-env.js'
import { CLINIC_MAPPING, CLINIC_SQL } from '../helpers/scratch-clinic.js'
import { main } from '../../src/cli.js'
import { DATABASES, DIALECT_NAMES, EXPLAIN_DIALECTS } from '../../src/sql/databases.js'
import { LOADABLE_SCHEMES } from '../../src/db/load-fixture.js'

const ROOT = new URL('../..', import.meta.url).pathname

/** Through the real launcher (`npx ponte` runs bin/ponte.js): slow, so only where the process matters. */
async function launched (...args: string[]): Promise<{ code: number, out: string, err: string }> {
  return await new Promise((resolve) => {
    execFile(process.execPath, ['bin/ponte.js', ...args], { cwd: ROOT, env: childEnv({ MAPPING: undefined, DATABASE_URL: undefined }) }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout, err: stderr })
    })
  })
}

/** The same command in this process, its output captured. */
async function ponte (...args: string[]): Promise<{ code: number, out: string, err: string }> {
  const out: string[] = []
  const err: string[] = []
  const [stdout, stderr] = [process.stdout.write, process.stderr.write]
  process.stdout.write = ((c: string) => { out.push(String(c)); return true }) as typeof process.stdout.write
  process.stderr.write = ((c: string) => { err.push(String(c)); return true }) as typeof process.stderr.write
  const saved = { MAPPING: process.env.MAPPING, DATABASE_URL: process.env.DATABASE_URL }
  delete process.env.MAPPING
  delete process.env.DATABASE_URL
  try {
    const code = await main(args)
    return { code, out: out.join(''), err: err.join('') }
  } finally {
    process.stdout.write = stdout
    process.stderr.write = stderr
    Object.assign(process.env, Object.fromEntries(Object.entries(saved).filter(([, v]) => v !== undefined)))
  }
}

const dir = mkdtempSync(join(tmpdir(), 'ponte-cli-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const db = join(dir, 'legacy.db')
const raw = new BetterSqlite3(db)
raw.exec(CLINIC_SQL)
raw.close()
const write = (name: string, text: string): string => { writeFileSync(join(dir, name), text); return join(dir, name) }

t.test('the launcher: npx ponte runs the command and passes its exit code on', async (t) => {
  const help = await launched('--help')
  t.equal(help.code, 0)
  t.match(help.out, /^Usage: ponte \[options\] \[command\]/)
  const wrong = await launched('check', '--bogus')
  t.equal(wrong.code, 2)
  t.equal(wrong.err, "ponte: unknown option '--bogus' (see ponte --help)\n")
  const good = write('launched.yaml', CLINIC_MAPPING)
  const checked = await launched('check', '-m', good, '-d', `sqlite:${db}`, '--today', '2026-11-22')
  t.equal(checked.code, 0, checked.err)
  t.match(checked.out, /check passed\n$/)
})

t.test('--version prints the package version; no command prints help and exits 2', async (t) => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
  for (const flag of ['--version', '-V']) {
    const r = await launched(flag)
    t.equal(r.code, 0, `${flag}: exit 0`)
    t.equal(r.out, `${version}\n`, `${flag}: the version alone`)
  }
  const bare = await launched()
  t.equal(bare.code, 2, 'no command: wrong usage')
  t.equal(bare.out, '', 'nothing on stdout for a script to mistake for output')
  t.match(bare.err, /^Usage: ponte \[options\] \[command\]/, 'the help, on stderr')
  t.match(bare.err, /\n {2}check \[options\] /, 'listing the commands')
  const group = await ponte('fixtures')
  t.equal(group.code, 2, 'a command group without its command: exit 2')
  t.match(group.err, /^Usage: ponte fixtures/)
  for (const asked of [['help'], ['help', 'check']]) {
    const r = await ponte(...asked)
    t.equal(r.code, 0, `${asked.join(' ')}: help asked for, exit 0`)
    t.match(r.out, /^Usage: ponte/)
  }
})

t.test('--help on every command', async (t) => {
  for (const cmd of [[], ['check'], ['explain'], ['schema'], ['serve'], ['conformance'], ['init'], ['replay'], ['fixtures'], ['fixtures', 'load'], ['fixtures', 'dump']]) {
    const r = await ponte(...cmd, '--help')
    t.equal(r.code, 0, `${cmd.join(' ')} --help: exit 0`)
    t.match(r.out, /^Usage: ponte/, `${cmd.join(' ')} --help: usage`)
  }
})

t.test('usage mistakes: one line on stderr, exit 2, never a stack', async (t) => {
  for (const [args, says] of [
    [['check', '--bogus'], /^ponte: unknown option '--bogus'/],
    [['nosuch'], /^ponte: unknown command 'nosuch'/],
    [['explain', '--dialect', 'oracle'], /^ponte: option '--dialect <name>' argument 'oracle' is invalid\. Allowed choices are mssql, mssql-2008, sqlite, mysql, postgres\./],
    [['check', '--budget', 'soon'], /^ponte: --budget: "soon" is not a whole number of seconds$/],
    [['check', '--today', '22/11/2026'], /^ponte: --today: "22\/11\/2026" is not a date/],
    [['conformance', '--base', 'nowhere', '--key', 'k'], /^ponte: --base: "nowhere" is not a URL$/],
    [['conformance', '--key', 'k'], /^ponte: required option '--base <url>' not specified/],
    [['fixtures', 'load'], /^ponte: missing required argument 'fixture'/],
    [['fixtures', 'load', 'x.json', '--db', 'mssql://h/db'], /^ponte: fixtures load: cannot load into "mssql:" databases/],
    [['fixtures', 'dump', '-d', 'sqlite:x.db', '-o', 'out', '--from', 'yesterday'], /^ponte: --from: "yesterday" is not a date/],
    [['replay', '/nonexistent-capture', '--base', 'http://127.0.0.1:1', '--key', 'k'], /^ponte: \/nonexistent-capture: no such folder$/]
  ] as const) {
    const r = await ponte(...args)
    t.equal(r.code, 2, `${args.join(' ')}: exit 2`)
    t.equal(r.err.trim().split('\n').length, 1, `${args.join(' ')}: one line`)
    t.match(r.err.trim(), says)
    t.notMatch(r.err, /\n\s+at /)
  }
})

t.test('check: exit 0 clean, 1 with problems (also as JSON), 2 when the database cannot be opened', async (t) => {
  const good = write('good.yaml', CLINIC_MAPPING)
  const clean = await ponte('check', '-m', good, '-d', `sqlite:${db}`, '--today', '2026-11-22')
  t.equal(clean.code, 0, clean.out + clean.err)
  t.match(clean.out, /check passed\n$/)

  const bad = write('bad.yaml', CLINIC_MAPPING.replace('email: EMAIL', 'email: EMIAL'))
  const broken = await ponte('check', '-m', bad, '-d', `sqlite:${db}`, '--today', '2026-11-22', '--json')
  t.equal(broken.code, 1)
  const json = JSON.parse(broken.out) as { ok: boolean, findings: { severity: string, line: number, subject: string, message: string }[] }
  t.equal(json.ok, false)
  t.same(json.findings.filter((f) => f.severity === 'problem').map((f) => [f.line, f.subject]), [[33, 'client fields.email']])

  const away = await ponte('check', '-m', good, '-d', join(dir, 'missing', 'x.db').replace(/^/, 'sqlite:'))
  t.equal(away.code, 2)
  t.match(away.err, /^ponte: cannot open the database: /)
  const none = await ponte('check', '-m', good)
  t.equal(none.code, 2)
  t.match(none.err, /^ponte: no database: give -d, --db <url> or set DATABASE_URL$/m)
  const empty = await ponte('check', '-m', good, '-d', '')
  t.equal(empty.code, 2)
  t.match(empty.err, /^ponte: no database: give -d, --db <url> or set DATABASE_URL$/m, 'an empty -d names the option as --help does')
})

t.test('mistakes in the file: a YAML error at the line holding it, an enum listing its values once', async (t) => {
  const yaml = write('yaml.yaml', CLINIC_MAPPING.replace('    phones: [FONE]', '    phones: [FONE'))
  const r = await ponte('check', '-m', yaml, '-d', `sqlite:${db}`)
  t.equal(r.code, 1)
  const line = CLINIC_MAPPING.split('\n').findIndex((l) => l === '    phones: [FONE]') + 1
  t.match(r.err, new RegExp(`yaml\\.yaml:${line}:\\d+: `), `at line ${line}, where the [ opens`)
  t.equal(r.err.trim().split('\n').length, 1, 'said once')

  const format = write('format.yaml', CLINIC_MAPPING.replace('hour: { column: HORA, format: text }', 'hour: { column: HORA, format: hh:mm }'))
  const f = await ponte('explain', '-m', format)
  t.equal(f.code, 1)
  t.match(f.err, /format\.yaml:11:\d+: \/resources\/appointment\/start\/hour\/format: must be one of date, datetime, text, int, dmy, ymd, time, hhmm, minutes\n$/)
  t.equal(f.err.match(/must be/g)?.length, 1, 'one clause, not one per value')
})

t.test('the databases it offers are the registry\'s (src/sql/databases.ts)', async (t) => {
  const oneLine = (text: string): string => text.replace(/\s+/g, ' ')
  const explainHelp = await ponte('explain', '--help')
  t.match(oneLine(explainHelp.out), `(choices: ${EXPLAIN_DIALECTS.map((c) => `"${c}"`).join(', ')}, default: "${EXPLAIN_DIALECTS[0]}")`)
  const written = new Map<string, string>()
  for (const dialect of EXPLAIN_DIALECTS) {
    const r = await ponte('explain', '--dialect', dialect)
    t.equal(r.code, 0, `explain --dialect ${dialect}: ${r.err}`)
    t.match(r.out, /^-- /, `${dialect}: the statements`)
    written.set(dialect, r.out)
  }
  t.equal(new Set(written.values()).size, EXPLAIN_DIALECTS.length, 'each choice writes its own SQL')

  const loadHelp = await ponte('fixtures', 'load', '--help')
  t.match(oneLine(loadHelp.out), `where to load it (${LOADABLE_SCHEMES})`)
  for (const name of DIALECT_NAMES) {
    for (const scheme of DATABASES[name].schemes) {
      const r = await ponte('fixtures', 'load', join(dir, 'none.json'), '--db', `${scheme}://127.0.0.1:1/clinic`)
      if (DATABASES[name].loadFixture === undefined) {
        t.equal(r.code, 2, `${scheme}: no loader, a usage mistake`)
        t.equal(r.err, `ponte: fixtures load: cannot load into "${scheme}:" databases (use ${LOADABLE_SCHEMES})\n`)
      } else {
        t.equal(r.code, 1, `${scheme}: taken; the missing fixture file is what fails`)
        t.match(r.err, /ENOENT/)
      }
    }
  }
})
