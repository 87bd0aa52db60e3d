// Issue 13: reads that find one row per table by key run on the event loop, everything else on
// the SQLite worker thread. The judgement is SQLite's own plan, read on a schema generated here
// (unlike the samples: text keys, a composite UNIQUE, a non-unique index, an unindexed join),
// and it must never put a scan, a range or a write on the event loop, where it would hold
// /health for as long as it ran.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import tap, { type Test } from 'tap'
import { findsOneRowPerTable } from '../../src/sql/sqlite/one-row-plan.js'
import { sqlite } from '../../src/sql/sqlite/dialect.js'
import { LocalReads } from '../../src/sql/sqlite/local-reads.js'
import { openSqlite } from '../../src/sql/sqlite/driver.js'
import type { Statement } from '../../src/sql/statement.js'

function clinic (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-local-'))
  t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
  const file = join(dir, 'clinic.db')
  const db = new BetterSqlite3(file)
  db.exec(`
    CREATE TABLE ficha (num INTEGER PRIMARY KEY, pac_cod TEXT, sala TEXT, bloco INTEGER, obs TEXT, dia TEXT);
    CREATE TABLE paciente (cod TEXT NOT NULL UNIQUE, nome TEXT, fone TEXT, cpf TEXT UNIQUE);
    CREATE TABLE sala (id TEXT NOT NULL, bloco INTEGER NOT NULL, nome TEXT, UNIQUE (id, bloco));
    CREATE TABLE nota (ficha INTEGER, txt TEXT);
    CREATE INDEX ix_nota_ficha ON nota (ficha);
    CREATE TABLE convenio (sigla TEXT NOT NULL, nome TEXT);
    CREATE UNIQUE INDEX ux_convenio_sigla ON convenio (sigla);
    CREATE TABLE plano (conv TEXT, nome TEXT);
    INSERT INTO paciente VALUES ('P-1', 'Ana', '11 99999-0001', NULL), ('P-2', 'Bia', '11 99999-0002', NULL);
    INSERT INTO sala VALUES ('A', 1, 'Sala A1'), ('A', 2, 'Sala A2');
    INSERT INTO convenio VALUES ('UNI', 'Unimed');
    INSERT INTO ficha VALUES (7, 'P-1', 'A', 2, 'primeira', '2030-01-02'), (8, 'P-2', 'A', 1, NULL, '2030-01-03');
    INSERT INTO nota VALUES (7, 'x'), (7, 'y');
  `)
  db.close()
  return file
}

tap.test('the plan decides: one row per table by a whole unique key, nothing else', async (t) => {
  const db = new BetterSqlite3(clinic(t), { readonly: true })
  t.teardown(() => db.close())
  // Written as the SQLite dialect writes parameters (`+@p1`); the plan must read the same either way.
  const judge = (sql: string, values: Record<string, unknown> = { p1: 7 }): boolean => {
    const verdict = findsOneRowPerTable(db, sql.replaceAll('@p1', sqlite.placeholder(1)), values)
    t.equal(findsOneRowPerTable(db, sql, values), verdict, `the same with a bare parameter: ${sql}`)
    return verdict
  }

  t.ok(judge('SELECT * FROM ficha f WHERE f.num = @p1'), 'by the rowid')
  t.ok(judge(`SELECT f.num, p.nome, s.nome FROM ficha f
    LEFT JOIN paciente p ON p.cod = f.pac_cod
    LEFT JOIN sala s ON s.id = f.sala AND s.bloco = f.bloco
    WHERE f.num = @p1 ORDER BY f.dia`), 'joins on a UNIQUE text column and on both columns of a composite UNIQUE, with an ORDER BY')
  t.ok(judge('SELECT nome FROM convenio WHERE sigla = @p1', { p1: 'UNI' }), 'a UNIQUE index created on its own')

  t.notOk(judge('SELECT nome FROM paciente WHERE cpf IS NULL'), 'IS NULL on a UNIQUE column (the plan writes it as cpf=?): every NULL matches')
  t.notOk(judge('SELECT nome FROM paciente WHERE "cpf" IS @p1', { p1: null }), 'IS a bound value on a nullable UNIQUE column')
  t.ok(judge('SELECT nome FROM paciente WHERE cpf = @p1 AND fone IS NULL', { p1: '1' }), '= on a nullable UNIQUE column never matches its NULLs; IS on another column is only a filter')
  t.notOk(judge("SELECT nome FROM paciente WHERE cpf IS NULL AND nome <> 'x IS y'"), 'a string literal does not hide an IS')
  t.notOk(judge('SELECT nome FROM paciente WHERE cpf ISNULL'), 'ISNULL')
  t.notOk(judge('SELECT nome FROM paciente WHERE @p1 IS "cpf"', { p1: null }), 'the column on the right of IS')
  t.notOk(judge('SELECT nome FROM paciente WHERE [cpf] IS NOT DISTINCT FROM @p1', { p1: null }), 'IS NOT DISTINCT FROM')
  t.notOk(judge('SELECT s.nome FROM ficha f JOIN sala s ON s.id = f.sala WHERE f.num = @p1'), 'one column of a composite UNIQUE: several rows may match')
  t.notOk(judge('SELECT f.num, n.txt FROM ficha f LEFT JOIN nota n ON n.ficha = f.num WHERE f.num = @p1'), 'a non-unique index')
  t.notOk(judge('SELECT f.num, pl.nome FROM ficha f LEFT JOIN plano pl ON pl.conv = f.obs WHERE f.num = @p1'), 'an unindexed join')
  t.notOk(judge('SELECT * FROM ficha WHERE num >= @p1 AND num < @p1 + 5'), 'a range of keys')
  t.notOk(judge('SELECT * FROM paciente WHERE fone = @p1', { p1: 'x' }), 'a scan')
  t.notOk(judge('SELECT f.num, (SELECT group_concat(txt) FROM nota WHERE ficha = f.num) AS notas FROM ficha f WHERE f.num = @p1'), 'a subquery')
  t.notOk(judge('SELECT * FROM ficha WHERE num IN (SELECT ficha FROM nota)'), 'keys from a subquery')
  t.ok(judge('SELECT * FROM ficha WHERE num IN (@p1, 8)'), 'keys the statement lists: as many rows at most')
})

tap.test('only reads run here, and a plan is judged again when the clinic changes the schema', async (t) => {
  const file = clinic(t)
  const local = new LocalReads(file)
  t.teardown(() => { local.close() })
  t.same(local.read('SELECT nome FROM convenio WHERE sigla = @p1', { p1: 'UNI' }), [{ nome: 'Unimed' }], 'a key read answers here')
  t.equal(local.read('UPDATE ficha SET obs = \'x\' WHERE num = @p1 RETURNING num', { p1: 7 }), undefined, 'a write by key (RETURNING rows) is left to the worker')
  t.equal(local.read('SELECT * FROM nota WHERE ficha = @p1', { p1: 7 }), undefined, 'a non-unique read is left to the worker')

  // The clinic replaces its unique index with a plain one: the same SQL now may find many rows.
  const other = new BetterSqlite3(file)
  other.exec('DROP INDEX ux_convenio_sigla; CREATE INDEX ix_convenio_sigla ON convenio (sigla)')
  other.close()
  t.equal(local.read('SELECT nome FROM convenio WHERE sigla = @p1', { p1: 'UNI' }), undefined, 'judged again on the new schema: left to the worker')
})

tap.test('a hot journal left by a writer that died: key reads still answer (the worker rolls it back)', async (t) => {
  const file = clinic(t)
  const copy = file.replace(/clinic\.db$/, 'copy.db')
  // A transaction that has written to the file (cache of one page: every change spills), copied
  // with its journal before it ends, as a crash would leave them.
  const writer = new BetterSqlite3(file)
  writer.pragma('cache_size = 1')
  writer.exec('BEGIN')
  writer.prepare("UPDATE ficha SET obs = 'meio escrito'").run()
  writer.prepare("INSERT INTO nota SELECT 7, hex(randomblob(400)) FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4)").run()
  copyFileSync(file, copy)
  copyFileSync(`${file}-journal`, `${copy}-journal`)
  writer.exec('ROLLBACK')
  writer.close()
  const db = openSqlite(copy)
  t.teardown(db.close)
  const byKey: Statement = { name: 'test', sql: 'SELECT f.num, f.obs FROM ficha f WHERE f.num = @p1', params: [{ type: 'int', source: { input: 'id' } }] }
  t.same(await db.query(byKey, { id: 7 }), [{ num: 7, obs: 'primeira' }], 'the row as committed, not half-written')
  t.same(await db.query(byKey, { id: 7 }), [{ num: 7, obs: 'primeira' }], 'and again, now on the event loop')
  await db.close()
  await t.rejects(db.query(byKey, { id: 7 }), /closed/, 'after close, a key read fails as every other call does')
})

tap.test('through the driver: same rows either way, and a key read does not wait behind a long one', async (t) => {
  const file = clinic(t)
  const db = openSqlite(file)
  t.teardown(db.close)
  const stmt = (sql: string, ...inputs: string[]): Statement => ({ name: 'test', sql, params: inputs.map((input) => ({ type: 'int' as const, source: { input } })) })
  const byKey = stmt('SELECT f.num, p.nome FROM ficha f LEFT JOIN paciente p ON p.cod = f.pac_cod WHERE f.num = @p1', 'id')
  const notes = stmt('SELECT n.txt FROM nota n WHERE n.ficha = @p1 ORDER BY n.txt', 'id')
  t.same(await db.query(byKey, { id: 7 }), [{ num: 7, nome: 'Ana' }], 'a key read')
  t.same(await db.query(notes, { id: 7 }), [{ txt: 'x' }, { txt: 'y' }], 'a worker read')

  // A read the worker needs a while for (counting to 3 million), then a key read: the key read
  // answers first, without waiting for the worker's.
  const long = stmt('WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000000) SELECT count(*) AS c FROM n')
  const order: string[] = []
  const slow = db.query(long).then((r) => { order.push('long'); return r })
  const quick = db.query(byKey, { id: 8 }).then((r) => { order.push('key'); return r })
  t.same(await quick, [{ num: 8, nome: 'Bia' }])
  t.same(await slow, [{ c: 3000000 }])
  t.same(order, ['key', 'long'], 'the key read did not queue behind the long one')

  // Within a transaction, a key read from outside still waits for the commit: it must not see
  // the row half-written, nor miss it once the transaction has answered.
  const insert = stmt("INSERT INTO ficha (num, pac_cod) VALUES (@p1, 'P-2')", 'id')
  const seen: string[] = []
  const tx = db.transaction(async (q) => {
    await q.query(insert, { id: 9 })
    await new Promise((resolve) => setTimeout(resolve, 30))
    seen.push('committed')
  })
  const outside = db.query(byKey, { id: 9 }).then((r) => { seen.push('read'); return r })
  await tx
  t.same(await outside, [{ num: 9, nome: 'Bia' }], 'the read after the transaction sees its row')
  t.same(seen, ['committed', 'read'])

  // A stream has the connection alone from its first block until it is left: a key read asked
  // meanwhile waits for it, as it did when every read took a turn.
  const order2: string[] = []
  const blocks = db.stream!(notes, { id: 7 })[Symbol.asyncIterator]()
  t.same((await blocks.next()).value, [{ txt: 'x' }, { txt: 'y' }], 'the stream\'s first block')
  const during = db.query(byKey, { id: 7 }).then((r) => { order2.push('read'); return r })
  await new Promise((resolve) => setTimeout(resolve, 20))
  order2.push('stream left')
  await blocks.return?.(undefined)
  t.same(await during, [{ num: 7, nome: 'Ana' }])
  t.same(order2, ['stream left', 'read'], 'the key read waited for the stream')
})

tap.test('a key read here gives the very rows the worker gives: odd names, a name twice, REALs and BLOBs', async (t) => {
  const file = clinic(t)
  const setup = new BetterSqlite3(file)
  setup.exec("CREATE TABLE peca (id INTEGER PRIMARY KEY, preco REAL, foto BLOB, \"__proto__\" TEXT, \"a b\" TEXT); INSERT INTO peca VALUES (1, 0.30000000000000004, x'00ff10', 'p', 'espaço')")
  setup.close()
  const local = new LocalReads(file)
  t.teardown(() => { local.close() })
  const db = openSqlite(file)
  t.teardown(async () => { await db.close() })
  const sql = 'SELECT id, preco, foto, "__proto__", "a b", preco AS id FROM peca WHERE id = @p1'
  const here = local.read(sql, { p1: 1 })
  t.ok(here, 'judged a key read: it ran here')
  // The worker's answer: the same statement with a scan, so it is never judged local.
  const there = await db.query({ name: 'test', sql: sql.replace('WHERE id = @p1', 'WHERE id + 0 = @p1'), params: [{ type: 'int', source: { input: 'id' } }] } as unknown as Statement, { id: 1 })
  t.same(here, there, 'the same rows')
  const row = here![0]!
  t.same(Object.keys(row), ['id', 'preco', 'foto', '__proto__', 'a b'], 'names in their first place, a name given twice once')
  t.equal(row.id, 0.30000000000000004, 'the later of two values named alike, as better-sqlite3 gives it')
  t.ok(Buffer.isBuffer(row.foto) && (row.foto as Buffer).equals(Buffer.from([0, 0xff, 0x10])), 'a BLOB as a Buffer')
  t.equal(Object.getPrototypeOf(row), Object.prototype, 'a column named __proto__ is a property, not the prototype')
  t.equal((row as Record<string, unknown>)['__proto__'], 'p')
})
