// The server runs check's structural pass before it listens: a mapping that names a column
// the database does not have stops the start with the place to fix, instead of answering 500
// on /availability and every booking after /ready said ready.
import t from 'tap'
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { MappingMismatchError, openInstallation } from '../../../src/installation.js'
import { childEnv } from '../../helpers/child-env.js'
import { CLINIC_MAPPING, CLINIC_SQL } from '../../helpers/scratch-clinic.js'

const ROOT = new URL('../../..', import.meta.url).pathname

function scratch (mapping: string): { mappingFile: string, url: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-refusal-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const db = new BetterSqlite3(join(dir, 'legacy.db'))
  db.exec(CLINIC_SQL)
  db.close()
  writeFileSync(join(dir, 'mapping.yaml'), mapping)
  return { mappingFile: join(dir, 'mapping.yaml'), url: `sqlite:${join(dir, 'legacy.db')}` }
}

t.test('a mapping that fits opens; each planted mismatch refuses to open, naming its place', async (t) => {
  const ok = scratch(CLINIC_MAPPING)
  const inst = await openInstallation(ok.mappingFile, ok.url)
  await inst.close()
  for (const [from, to, says] of [
    ['end: { column: FIN', 'end: { column: FINAL', /availability weekly\.end: column `FINAL` does not exist in table `TB_GRADE`/],
    ['ORIGEM: { value: ponte }', 'ORIGME: { value: ponte }', /appointment write\.set\.ORIGME: column `ORIGME` does not exist/],
    ['table: TB_GRADE', 'table: TB_GRADES', /availability weekly\.table: table `TB_GRADES` does not exist/]
  ] as const) {
    const bad = scratch(CLINIC_MAPPING.replace(from.replace('FIN', 'FIM'), to))
    const err = await openInstallation(bad.mappingFile, bad.url).then(() => undefined, (e: unknown) => e)
    t.ok(err instanceof MappingMismatchError, `${to}: refused`)
    t.match((err as Error).message, says)
    t.equal((err as MappingMismatchError).findings.length, 1, 'one finding')
  }
})

t.test('npm start exits 1 with the finding, no stack, and never listens', async (t) => {
  const bad = scratch(CLINIC_MAPPING.replace('end: { column: FIM', 'end: { column: FINAL'))
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: childEnv({ MAPPING: bad.mappingFile, DATABASE_URL: bad.url, PORT: '3202', API_KEYS: 'refusal-test-key-0123456789', NODE_ENV: 'development' }),
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let out = ''
  child.stdout.on('data', (d) => { out += String(d) })
  child.stderr.on('data', (d) => { out += String(d) })
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  t.equal(code, 1, 'exit code 1')
  t.match(out, /The mapping does not fit the database/)
  t.match(out, /mapping\.yaml:\d+:\d+: availability weekly\.end: column `FINAL` does not exist in table `TB_GRADE`/)
  t.notMatch(out, /\n\s+at /, 'no stack trace')
  t.notMatch(out, /listening|Server listening/i, 'never listened')
})

t.test('a database that cannot be reached at start does not stop the start (the check waits for the next one)', async (t) => {
  const inst = await openInstallation('mappings/clinica-sorriso.yaml', 'mssql://u:p@127.0.0.1:1/clinic?encrypt=false&connectTimeoutMs=300&requestTimeoutMs=300')
  t.ok(inst.compiled, 'opened')
  await inst.close()
})
