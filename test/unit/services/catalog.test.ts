// The lookup catalogue's life on a real SQLite copy of sample 1: within its TTL every request
// is served the same snapshot without a statement; past it the stale snapshot is served at
// once while one reload runs, and the clinic's change shows after that reload.
import t from 'tap'
import { Catalog } from '../../../src/services/catalog.js'
import { openSample } from '../../../src/installation.js'

const TTL_MS = 150
const pause = async (ms: number): Promise<void> => { await new Promise((resolve) => setTimeout(resolve, ms)) }
const nameOf = (snap: Awaited<ReturnType<Catalog['snapshot']>>): unknown => snap.record('professional', '1')?.entity.name

t.test('fresh, then stale while one reload runs, then the clinic\'s change', async (t) => {
  const inst = await openSample('mappings/clinica-sorriso.yaml')
  t.teardown(async () => { await inst.close() })
  const catalog = new Catalog(inst.compiled, inst.db, TTL_MS)

  const before = inst.db.stats.statements
  const first = await catalog.snapshot(undefined)
  const loaded = inst.db.stats.statements
  const load = loaded - before
  t.ok(loaded > 0, 'the first snapshot is read from the database')
  const again = await Promise.all([catalog.snapshot(undefined), catalog.snapshot(undefined), catalog.snapshot(undefined)])
  t.ok(again.every((s) => s === first), 'within the TTL: the same snapshot')
  t.equal(inst.db.stats.statements, loaded, 'and no statement')
  t.equal(catalog.misses, 1)
  t.equal(catalog.hits, 3)

  await inst.db.transaction(async (tx) => {
    await tx.query({ name: 'test.rename', sql: "UPDATE PROFISSIONAL SET NOME = 'Dra. Renomeada' WHERE ID_PROFISSIONAL = 1", params: [] })
  })
  t.not(nameOf(first), 'Dra. Renomeada')
  await pause(TTL_MS + 50)
  const stale = await catalog.snapshot(undefined)
  t.equal(stale, first, 'past the TTL: the stale snapshot, at once')
  for (let i = 0; i < 50 && (await catalog.snapshot(undefined)) === first; i++) await pause(20)
  const fresh = await catalog.snapshot(undefined)
  t.not(fresh, first, 'a reload replaced it')
  t.equal(nameOf(fresh), 'Dra. Renomeada', 'with the clinic\'s change')
  t.equal(catalog.misses, 1, 'nobody waited for the reload')
  t.equal(inst.db.stats.statements - loaded, 1 + load, `one reload of ${load} statements (and the one UPDATE)`)
})
