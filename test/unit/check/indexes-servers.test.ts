// Index warnings read from MariaDB's and PostgreSQL's catalogs: loaded from the same fixture
// (same primary keys and indexes), each sample gets exactly the warnings it gets on SQLite, and
// an index created on the server silences its warning.
import t from 'tap'
import { openInstallation, openSample, sampleFixture } from '../../../src/installation.js'
import { checkIndexes } from '../../../src/check/indexes.js'
import { Findings } from '../../../src/check/findings.js'
import type { Installation } from '../../../src/installation.js'
import { SAMPLES } from '../../helpers/app.js'
import { createScratchDatabase } from '../../helpers/scratch-db/index.js'

async function indexWarnings (inst: Installation): Promise<string[]> {
  const out = new Findings(inst.model)
  checkIndexes(inst.compiled, await inst.db.introspect.catalog(), out, inst.db.dialect)
  return out.list.filter((f) => /has no index/.test(f.message)).map((f) => `${f.subject}: ${f.message}`).sort()
}

for (const mapping of SAMPLES) {
  const sqlite = await openSample(mapping)
  const expected = await indexWarnings(sqlite)
  await sqlite.close()
  for (const dialect of ['mysql', 'postgres'] as const) {
    t.test(`${mapping} on ${dialect}: the same index warnings as on SQLite`, async (t) => {
      const scratch = await createScratchDatabase(dialect, sampleFixture(mapping))
      t.teardown(scratch.drop)
      const inst = await openInstallation(mapping, scratch.url)
      t.teardown(inst.close)
      const catalog = await inst.db.introspect.catalog()
      t.ok(catalog.tables.every((table) => Array.isArray(table.indexes)), 'every base table has its index list')
      t.ok(expected.length > 0, `${expected.length} warnings on SQLite`)
      const found = await indexWarnings(inst)
      // PostgreSQL's prefix probes (phone, CPF) need a pattern_ops index: the one difference,
      // also for a probed column the sample indexes already (a default B-tree under this
      // server's C.UTF-8 collation cannot seek a prefix).
      const probed = found.filter((w) => /by (phone|CPF)/.test(w))
      t.ok(probed.length > 0, 'probed search columns are advised')
      const besideDefault = found.filter((w) => /has no index that seeks a prefix/.test(w))
      if (dialect === 'postgres') t.ok(probed.every((w) => / (text|bpchar)_pattern_ops\)$/.test(w)), 'with text_pattern_ops on PostgreSQL')
      else t.ok(probed.every((w) => !/_pattern_ops/.test(w)), 'a plain index elsewhere')
      if (dialect !== 'postgres') t.same(besideDefault, [], 'every index seeks a prefix there')
      // The statement is the database's own (its quoting and schema naming): the rest agrees.
      const advice = (w: string): string => w.replace(/; create one: CREATE INDEX .*$/, '')
      t.same(found.filter((w) => !besideDefault.includes(w)).map(advice), expected.map(advice), 'the same warnings')

      // Run the first statement a warning prints, as printed, on the server: that warning goes.
      const create = /create one: (CREATE INDEX .*)$/.exec(found[0])?.[1]
      t.ok(create, `a CREATE INDEX to run: ${create}`)
      if (!create) return
      await inst.db.query({ name: 'test.index', sql: create, params: [] })
      const after = await indexWarnings(inst)
      t.equal(after.length, found.length - 1, 'one warning fewer')
      t.notOk(after.includes(found[0]), 'and it is the one the index answers')
      // Every other one printed runs as printed too, and leaves no warning.
      for (const w of after) await inst.db.query({ name: 'test.index', sql: /create one: (CREATE INDEX .*)$/.exec(w)?.[1] ?? '', params: [] })
      t.same(await indexWarnings(inst), [], 'every printed statement ran and answered its warning')
    })
  }
}
