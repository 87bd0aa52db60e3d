// Hot reload as an operator does it: `kill -HUP` a running Ponte (src/server.ts in its own
// process) after editing its mapping. A changed mapping is served from then on without a
// request failing meanwhile; a broken one (bad YAML, a column the database lacks) leaves the
// old one serving and says why in the log; /ready shows which mapping (its hash) is served.
import t from 'tap'
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSqliteFromFixture } from '../../../src/sql/sqlite/load.js'
import { sampleFixture } from '../../../src/installation.js'
import { hup, startServer } from '../../helpers/server-process.js'

const SAMPLE = 'mappings/clinica-sorriso.yaml'
const KEY = 'reload-key-0123456789abcdef'
const OLD_REGISTER = "register: { template: '{CONSELHO} {NR_CONSELHO}/{UF_CONSELHO}' }"
const NEW_REGISTER = "register: { template: '{CONSELHO} nº {NR_CONSELHO}/{UF_CONSELHO}' }"

const dir = mkdtempSync(join(tmpdir(), 'ponte-reload-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))
const db = join(dir, 'clinic.db')
createSqliteFromFixture(sampleFixture(SAMPLE), db)
const mapping = join(dir, 'clinica-sorriso.yaml')
const original = readFileSync(SAMPLE, 'utf8')
if (!original.includes(OLD_REGISTER)) throw new Error('the sample no longer maps register with the template this test edits')
writeFileSync(mapping, original)

const server = await startServer({ DATABASE_URL: `sqlite:${db}`, MAPPING: mapping, API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: '0', IDEMPOTENCY_STORE: ':memory:' })
t.teardown(() => server.stop())

const get = async (path: string) => {
  const res = await fetch(server.url(path), { headers: { authorization: `Bearer ${KEY}` } })
  return { status: res.status, body: await res.json() as any }
}
const sha = (text: string) => createHash('sha256').update(text).digest('hex')
const registers = async () => ((await get('/professionals')).body as Array<{ register?: string }>).map((p) => p.register).filter(Boolean) as string[]

t.test('/ready names the mapping served and the catalogue age', async (t) => {
  await get('/professionals')
  const ready = await get('/ready')
  t.equal(ready.status, 200)
  t.match(ready.body, { status: 'ready', mapping: { installation: 'clinica-sorriso', hash: sha(original) }, catalogue: { ageSeconds: Number, refreshFailures: 0 } })
})

t.test('a changed mapping is served after SIGHUP, and no request fails during the swap', async (t) => {
  t.ok((await registers()).every((r) => !r.includes(' nº ')), 'before: the old template')
  writeFileSync(mapping, original.replace(OLD_REGISTER, NEW_REGISTER))
  // Requests keep flowing, four at a time, while the mapping is swapped under them.
  let stop = false
  const statuses: number[] = []
  const workers = Array.from({ length: 4 }, async () => {
    while (!stop) statuses.push((await get('/appointments?start=2026-11-01&end=2026-11-30')).status, (await get('/professionals')).status)
  })
  const until = async (n: number) => { while (statuses.length < n) await new Promise((resolve) => setTimeout(resolve, 10)) }
  await until(10)
  const line = await hup(server)
  await until(statuses.length + 20)
  stop = true
  await Promise.all(workers)
  t.equal(line.msg, 'mapping reloaded')
  t.ok(statuses.length >= 30, `${statuses.length} requests before, during and after the reload`)
  t.same([...new Set(statuses)], [200], 'every one answered 200')
  const now = await registers()
  t.ok(now.length > 0 && now.every((r) => r.includes(' nº ')), 'after: the new template')
  t.equal((await get('/ready')).body.mapping.hash, sha(original.replace(OLD_REGISTER, NEW_REGISTER)), '/ready shows the new hash')
})

t.test('a broken mapping keeps the old one serving, and the log says why', async (t) => {
  const serving = (await get('/ready')).body.mapping.hash
  const cases: Array<[string, string, RegExp]> = [
    ['invalid YAML', original.replace('resources:', 'resources: [oops'), /mapping reload failed/],
    ['a column the database lacks', original.replace(NEW_REGISTER, NEW_REGISTER).replace('      name: NOME\n      description: CURRICULO', '      name: NOME_QUE_NAO_EXISTE\n      description: CURRICULO'), /mapping reload failed/]
  ]
  for (const [what, text, expected] of cases) {
    writeFileSync(mapping, text)
    const line = await hup(server)
    t.match(line.msg, expected, `${what}: reload refused`)
    t.equal(line.level, 50, `${what}: logged as an error`)
    t.ok(line.msg.length > 'mapping reload failed'.length + 20, `${what}: with the reason (${line.msg.split('\n')[0].slice(0, 120)})`)
    t.equal((await get('/ready')).body.mapping.hash, serving, `${what}: /ready still names the mapping served`)
    const now = await registers()
    t.ok(now.length > 0 && now.every((r) => r.includes(' nº ')), `${what}: still serving the last good mapping`)
  }
})
