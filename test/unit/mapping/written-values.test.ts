// A constant the mapping writes that its column cannot hold (text into an integer column, `now`
// into a short text column): `ponte check` says so at the constant's line with exit 1 and the server
// refuses to start — before, check passed and every state move then answered 400.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { main } from '../../../src/cli.js'
import { openInstallation, MappingMismatchError } from '../../../src/installation.js'
import { MappingError } from '../../../src/mapping/errors.js'
import { CLINIC_MAPPING, CLINIC_SQL } from '../../helpers/scratch-clinic.js'

function scratch (mapping: string): { db: string, mapping: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-constants-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = join(dir, 'legacy.db')
  const raw = new BetterSqlite3(db)
  raw.exec(CLINIC_SQL)
  raw.close()
  writeFileSync(join(dir, 'mapping.yaml'), mapping)
  return { db, mapping: join(dir, 'mapping.yaml') }
}

async function check (s: { db: string, mapping: string }): Promise<{ code: number, out: string }> {
  let out = ''
  const write = process.stdout.write
  const err = process.stderr.write
  process.stdout.write = ((chunk: string) => { out += chunk; return true }) as typeof process.stdout.write
  process.stderr.write = (() => true) as typeof process.stderr.write
  try {
    const code = await main(['check', '--mapping', s.mapping, '--db', `sqlite:${s.db}`, '--today', '2026-11-22', '--quiet'])
    return { code, out }
  } finally {
    process.stdout.write = write
    process.stderr.write = err
  }
}

const plants = [
  { what: 'text into an integer column', from: 'CONFIRMED: { SIT: { value: 2 } }', to: 'CONFIRMED: { SIT: { value: confirmada } }', message: /write\.states\.CONFIRMED\.SIT: `value: "confirmada"` is text, but column `SIT` holds numbers/ },
  { what: 'text longer than its column', from: 'ORIGEM: { value: ponte }', to: 'ORIGEM: { value: ponte-integracao-web }', message: /write\.set\.ORIGEM: `value: "ponte-integracao-web"` writes 20 characters, but column `ORIGEM` holds 10/ },
  { what: '`now` longer than its text column', from: 'ORIGEM: { value: ponte }', to: 'ORIGEM: { now: datetime }', message: /write\.set\.ORIGEM: `now: datetime` writes 19 characters, but column `ORIGEM` holds 10/ }
]

// A stamp into a column the mapping reads as something else (here the state) is refused as
// the mapping loads, before any database is asked: the server does not start, at the line.
t.test('`now` into the state column is refused at load', async (t) => {
  const mapping = CLINIC_MAPPING.replace('CANCELED: { SIT: { value: 3 } }', 'CANCELED: { SIT: { now: datetime } }')
  const line = mapping.split('\n').findIndex((l) => l.includes('CANCELED: { SIT: { now: datetime } }')) + 1
  const s = scratch(mapping)
  const refused = await openInstallation(s.mapping, `sqlite:${s.db}`).then(async (inst) => { await inst.close(); return undefined }, (err: unknown) => err)
  t.ok(refused instanceof MappingError, 'the server does not start on it')
  t.match((refused as Error).message, new RegExp(`:${line}:\\d+: /resources/appointment/write/states/CANCELED/SIT: column \`SIT\` holds the appointment's state: a \`now\` stamp writes a date or time there`), 'and says why, at the line')
  t.equal((await check(s)).code === 0, false, 'check fails too')
})

t.test('the clean mapping passes', async (t) => {
  const { code, out } = await check(scratch(CLINIC_MAPPING))
  t.equal(code, 0, out)
})

for (const p of plants) {
  t.test(p.what, async (t) => {
    t.ok(CLINIC_MAPPING.includes(p.from), 'the mistake is planted')
    const mapping = CLINIC_MAPPING.replace(p.from, p.to)
    const line = mapping.split('\n').findIndex((l) => l.includes(p.to)) + 1
    const s = scratch(mapping)
    const { code, out } = await check(s)
    t.equal(code, 1, 'exit 1')
    const reported = out.split('\n').filter((l) => p.message.test(l))
    t.equal(reported.length, 1, 'reported once')
    t.match(reported[0], new RegExp(`:${line}:\\d+: `), `at line ${line}`)
    const refused = await openInstallation(s.mapping, `sqlite:${s.db}`).then(async (inst) => { await inst.close(); return undefined }, (err: unknown) => err)
    t.ok(refused instanceof MappingMismatchError, 'the server does not start on it')
    t.match((refused as Error).message, p.message, 'and says why')
  })
}
