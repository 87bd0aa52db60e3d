// The MariaDB/MySQL driver against the real local server (127.0.0.1:3306): values come back in
// the shapes the readers expect, server errors become Ponte's typed errors, and the bounds
// hold — statement timeout (504), pool wait and connect (503) — with recovery, without a
// restart, when the server (here: a proxy in front of it) comes back.
import t from 'tap'
import { createServer, connect as tcpConnect, type AddressInfo, type Server, type Socket } from 'node:net'
import { once } from 'node:events'
import { randomBytes } from 'node:crypto'
import { openMysql } from '../../../../src/sql/mysql/driver.js'
import { parseMysqlUrl } from '../../../../src/sql/mysql/settings.js'
import { connectTo } from '../../../../src/sql/mysql/load.js'
import { adminUrl } from '../../../helpers/scratch-db/mysql.js'
import { mysql } from '../../../../src/sql/mysql/dialect.js'
import { ParamList, type Statement } from '../../../../src/sql/statement.js'
import type { SqlTypeName } from '../../../../src/mapping/schema.js'
import { DuplicateKeyError, DatabaseTimeoutError, DatabaseUnavailableError, InvalidInputError, MissingValueError } from '../../../../src/errors.js'

t.setTimeout(120_000)

const name = `ponte_drv_${randomBytes(5).toString('hex')}`
const base = new URL(adminUrl())
const urlFor = (options: string, host = `${base.hostname}:${base.port || 3306}`): string =>
  `mysql://${base.username || 'root'}${base.password ? `:${base.password}` : ''}@${host}/${name}${options ? `?${options}` : ''}`

/** A statement with typed inputs, as the compiler builds them. */
function stmt (sql: (p: (input: string, type: SqlTypeName) => string) => string): Statement {
  const params = new ParamList(mysql)
  return { name: 'test', sql: sql((input, type) => params.input(input, type)), params: params.params }
}

t.before(async () => {
  const admin = await connectTo(adminUrl())
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`)
  await admin.query(`CREATE TABLE \`${name}\`.\`PARENT\` (\`ID\` INT NOT NULL PRIMARY KEY) ENGINE=InnoDB`)
  await admin.query(`CREATE TABLE \`${name}\`.\`ITEM\` (\`ID\` INT NOT NULL AUTO_INCREMENT PRIMARY KEY, \`CODE\` VARCHAR(5) CHARACTER SET latin1 NOT NULL,
    \`DAY\` DATE, \`AT\` DATETIME, \`HOUR\` TIME, \`PRICE\` DECIMAL(10,2), \`BIG\` DECIMAL(30,2), \`FLAG\` TINYINT(1), \`BITS\` BIT(1), \`PAD\` CHAR(4),
    \`PARENT_ID\` INT, UNIQUE KEY (\`CODE\`), FOREIGN KEY (\`PARENT_ID\`) REFERENCES \`PARENT\` (\`ID\`)) ENGINE=InnoDB`)
  await admin.query(`INSERT INTO \`${name}\`.\`PARENT\` VALUES (1)`)
  // 2^18 rows of ~200 bytes: a result far larger than the sockets' buffers, so a streamed read
  // stopped after its first block leaves most of it on the server.
  await admin.query(`CREATE TABLE \`${name}\`.\`SERIES\` (\`N\` INT NOT NULL PRIMARY KEY, \`PAD\` CHAR(200) NOT NULL) ENGINE=InnoDB`)
  await admin.query(`INSERT INTO \`${name}\`.\`SERIES\` VALUES (1, REPEAT('x', 200))`)
  for (let i = 0; i < 18; i++) await admin.query(`INSERT INTO \`${name}\`.\`SERIES\` SELECT \`N\` + (SELECT MAX(\`N\`) FROM \`${name}\`.\`SERIES\`), \`PAD\` FROM \`${name}\`.\`SERIES\``)
  await admin.end()
})

t.teardown(async () => {
  const admin = await connectTo(adminUrl())
  await admin.query(`DROP DATABASE IF EXISTS \`${name}\``)
  await admin.end()
})

const insert = stmt((p) => mysql.insert('dbo.ITEM', ['CODE', 'DAY', 'AT', 'HOUR', 'PRICE', 'BIG', 'FLAG', 'BITS', 'PAD', 'PARENT_ID'],
  [p('code', 'text'), p('day', 'date'), p('at', 'datetime'), p('hour', 'time'), p('price', 'decimal'), p('big', 'decimal'), p('flag', 'bit'), p('bits', 'bit'), p('pad', 'char'), p('parent', 'int')], 'ID'))
const row = { code: '01', day: '2026-03-15', at: '2026-03-15 09:30:00', hour: '09:30:00', price: 12.5, big: '1234567890123456789012.25', flag: true, bits: 1, pad: 'ab', parent: '1' }

t.test('DATABASE_URL options: the mssql names, and a misspelt one refused', async (t) => {
  const s = parseMysqlUrl('mariadb://ponte:s%40cret@db.clinic:3307/CLINICA?poolMax=3&connectTimeoutMs=800&requestTimeoutMs=9000')
  t.match(s, { poolMax: 3, connectTimeoutMs: 800, statementTimeoutMs: 9000, connection: { host: 'db.clinic', port: 3307, user: 'ponte', password: 's@cret', database: 'CLINICA', dateStrings: true } })
  t.throws(() => parseMysqlUrl('mysql://h/db?statementTimeout=5'), /unknown MariaDB\/MySQL option "statementTimeout"/)
  t.throws(() => parseMysqlUrl('mysql://h/db?poolMax=-1'), /poolMax must be a whole number/)
})

t.test('values round-trip in the shapes the readers expect; an insert yields its new id', async (t) => {
  const db = await openMysql(urlFor(''))
  t.teardown(() => db.close())
  const [{ id }] = await db.transaction(async (tx) => await tx.query(insert, row))
  t.ok(Number(id) > 0, 'the AUTO_INCREMENT key comes back as `id`')
  const read = stmt((p) => `SELECT \`DAY\`, \`AT\`, \`HOUR\`, \`PRICE\`, \`BIG\`, \`FLAG\`, \`BITS\`, \`PAD\` FROM \`ITEM\` WHERE \`ID\` = ${p('id', 'int')}`)
  const [got] = await db.query(read, { id: String(id) })
  t.same(got, { DAY: '2026-03-15', AT: '2026-03-15 09:30:00', HOUR: '09:30:00', PRICE: 12.5, BIG: '1234567890123456789012.25', FLAG: 1, BITS: 1, PAD: 'ab' },
    'dates as text, never shifted; a decimal a double holds as a number, a longer one as text; bit as 0/1')
  const streamedRows = []
  for await (const block of db.stream!(read, { id: String(id) })) streamedRows.push(...block)
  t.same(streamedRows, [got], 'a streamed read gives the same values as a whole one')
  const nulls = stmt((p) => `SELECT NULL + \`PRICE\` AS \`PRICE\`, IF(\`ID\` < 0, \`BITS\`, NULL) AS \`BITS\` FROM \`ITEM\` WHERE \`ID\` = ${p('id', 'int')}`)
  t.same(await db.query(nulls, { id: String(id) }), [{ PRICE: null, BITS: null }], 'a null decimal or bit stays null')
  // Bound as text, a text id is compared as text: '1' does not find '01' (as a number it would).
  const byCode = stmt((p) => `SELECT \`ID\` FROM \`ITEM\` WHERE \`CODE\` = ${p('code', 'text')}`)
  t.equal((await db.query(byCode, { code: '1' })).length, 0, "'1' is not '01'")
  t.equal((await db.query(byCode, { code: '01' })).length, 1, "'01' is found")
  t.equal((await db.query(byCode, { code: '01 ' })).length, 1, 'trailing spaces are ignored by = (PAD SPACE), as SQL Server does')
})

t.test('server refusals become typed errors that never quote the value', async (t) => {
  const db = await openMysql(urlFor(''))
  t.teardown(() => db.close())
  const attempt = async (args: Record<string, unknown>): Promise<unknown> => {
    try { await db.transaction(async (tx) => await tx.query(insert, { ...row, ...args })) } catch (err) { return err }
  }
  t.type(await attempt({ code: 'dup' }), 'undefined', 'a first row with a code is written')
  const dup = await attempt({ code: 'dup' })
  t.type(dup, DuplicateKeyError, 'a duplicate key is a 409')
  t.same((dup as DuplicateKeyError).key, { name: 'CODE' }, 'naming its key (the index), which the catalogue turns into columns')
  t.notMatch(JSON.stringify({ ...(dup as object), message: (dup as Error).message }), /dup/, 'the value is not kept')
  const missing = await attempt({ code: null })
  t.type(missing, MissingValueError, 'a NULL in a NOT NULL column names the column for the service')
  t.equal((missing as MissingValueError).column, 'CODE')
  const seenInside = await db.transaction(async (tx) => await failure(tx.query(insert, { ...row, code: null })))
  t.type(seenInside, MissingValueError, 'inside a transaction the service sees the typed error at once')
  t.type(await attempt({ code: 'toolong' }), InvalidInputError, 'a value longer than the column is a 400 (strict mode, never cut)')
  t.type(await attempt({ code: 'fk', parent: '99' }), InvalidInputError, 'a missing parent row is a 400')
  const wrong = await attempt({ code: 'bad', day: 'secret-2026-99-99' })
  t.type(wrong, InvalidInputError, 'a value the column type cannot hold is a 400')
  t.notMatch((wrong as Error).message, /secret/, 'the message does not quote the value')
})

t.test('a statement past statementTimeoutMs is a 504, and the connection serves the next one', async (t) => {
  const db = await openMysql(urlFor('statementTimeoutMs=300'))
  t.teardown(() => db.close())
  const started = performance.now()
  t.type(await failure(db.query({ name: 'slow', sql: 'SELECT SLEEP(3) AS s', params: [] })), DatabaseTimeoutError)
  t.ok(performance.now() - started < 2000, 'stopped by the server at the bound, not after the sleep')
  t.same(await db.query({ name: 'quick', sql: 'SELECT 1 AS one', params: [] }), [{ one: 1 }])
})

t.test('waiting for a free connection is bounded by connectTimeoutMs (503)', async (t) => {
  const db = await openMysql(urlFor('poolMax=1&connectTimeoutMs=300'))
  t.teardown(() => db.close())
  let release!: () => void
  const held = db.transaction(async () => { await new Promise<void>((resolve) => { release = resolve }) })
  await new Promise((resolve) => setTimeout(resolve, 100))
  t.same(db.pool?.(), { inUse: 1, waiting: 0 }, 'the gauge counts the connection held')
  const started = performance.now()
  t.type(await failure(db.query({ name: 'q', sql: 'SELECT 1 AS one', params: [] })), DatabaseUnavailableError)
  t.ok(performance.now() - started < 1500, 'answered within the bound')
  release()
  await held
  t.same(await db.query({ name: 'q', sql: 'SELECT 1 AS one', params: [] }), [{ one: 1 }], 'served once the connection is free')
})

t.test('a closed port is a 503 at once', async (t) => {
  const port = await closedPort()
  const db = await openMysql(urlFor('connectTimeoutMs=2000', `127.0.0.1:${port}`))
  t.teardown(() => db.close())
  const started = performance.now()
  t.type(await failure(db.query({ name: 'q', sql: 'SELECT 1', params: [] })), DatabaseUnavailableError)
  t.type(await failure(db.ping()), DatabaseUnavailableError)
  t.ok(performance.now() - started < 1000, 'refused connections fail fast')
})

t.test('a silent server is a 503 within connectTimeoutMs, with one attempt shared by concurrent requests', async (t) => {
  const sockets: Socket[] = []
  const silent = createServer((s) => { sockets.push(s); s.on('error', () => undefined) })
  silent.listen(0, '127.0.0.1')
  await once(silent, 'listening')
  t.teardown(() => { sockets.forEach((s) => s.destroy()); silent.close() })
  const db = await openMysql(urlFor('connectTimeoutMs=400&poolMax=5', `127.0.0.1:${(silent.address() as AddressInfo).port}`))
  t.teardown(() => db.close())
  const started = performance.now()
  const results = await Promise.allSettled(Array.from({ length: 8 }, async () => await db.query({ name: 'q', sql: 'SELECT 1', params: [] })))
  t.ok(results.every((r) => r.status === 'rejected' && r.reason instanceof DatabaseUnavailableError), 'every request is a 503')
  t.ok(performance.now() - started < 2000, 'within the bound')
  t.equal(sockets.length, 1, 'one connection attempt, not one per request')
})

t.test('when the server goes away and comes back, requests fail with 503 and then succeed without reopening', async (t) => {
  const proxy = await tcpProxy(Number(base.port || 3306))
  t.teardown(() => proxy.stop())
  const db = await openMysql(urlFor('connectTimeoutMs=500', `127.0.0.1:${proxy.port}`))
  t.teardown(() => db.close())
  const q: Statement = { name: 'q', sql: 'SELECT 1 AS one', params: [] }
  t.same(await db.query(q), [{ one: 1 }], 'served through the proxy')
  await proxy.stop()
  t.type(await failure(db.query(q)), DatabaseUnavailableError, 'the server gone is a 503')
  t.type(await failure(db.query(q)), DatabaseUnavailableError, 'and stays a 503 while it is gone')
  await proxy.start()
  const back = performance.now()
  t.same(await db.query(q), [{ one: 1 }], 'the first request after it returns is served')
  t.ok(performance.now() - back < 5000, 'recovered within 5 s')
})

t.test('a connection killed on the server costs at most one 503', async (t) => {
  const db = await openMysql(urlFor('poolMax=1'))
  t.teardown(() => db.close())
  const [{ id }] = await db.query({ name: 'id', sql: 'SELECT CONNECTION_ID() AS id', params: [] })
  const admin = await connectTo(adminUrl())
  await admin.query('KILL ?', [id])
  await admin.end()
  const q: Statement = { name: 'q', sql: 'SELECT 1 AS one', params: [] }
  const first = await db.query(q).catch((err: unknown) => err)
  t.ok(Array.isArray(first) || first instanceof DatabaseUnavailableError, 'the next request is served or a 503')
  t.same(await db.query(q), [{ one: 1 }], 'the one after is served on a new connection')
})

/** Every row of SERIES with the id of the connection that reads it, streamed. */
const SERIES: Statement = { name: 'series', sql: 'SELECT CONNECTION_ID() AS `conn`, `N`, `PAD` FROM `SERIES` ORDER BY `N`', params: [] }
const SERIES_ROWS = 2 ** 18
/** Its first 5,000 rows: a read short enough to finish well within the statement bound. */
const SERIES_HEAD: Statement = { ...SERIES, sql: 'SELECT CONNECTION_ID() AS `conn`, `N`, `PAD` FROM `SERIES` WHERE `N` <= 5000 ORDER BY `N`' }

/** The rows of a streamed read, counted. */
async function streamed (db: Awaited<ReturnType<typeof openMysql>>, statement: Statement): Promise<number> {
  let rows = 0
  for await (const block of db.stream!(statement)) rows += block.length
  return rows
}

/**
 * A streamed read of SERIES that stops after its first block, runs `cut` (the connection's end),
 * and reads on: how it ended and when, counted from the cut. A read still open after `waitMs`
 * is reported as hung (it is left open: the bug it shows is that nothing would end it).
 */
async function cutMidRead (db: Awaited<ReturnType<typeof openMysql>>, cut: (connectionId: number) => Promise<void>, waitMs: number): Promise<{ outcome: unknown, rows: number, ms: number }> {
  const blocks = db.stream!(SERIES)[Symbol.asyncIterator]()
  const first = await blocks.next()
  let rows = first.done === true ? 0 : first.value.length
  await cut(Number((first.value as Array<{ conn: number }>)[0].conn))
  const cutAt = performance.now()
  const readOn = (async (): Promise<unknown> => {
    try {
      for (let b = await blocks.next(); b.done !== true; b = await blocks.next()) rows += b.value.length
      return 'ended'
    } catch (err) { return err }
  })()
  const outcome = await Promise.race([readOn, new Promise((resolve) => setTimeout(resolve, waitMs, 'hung'))])
  return { outcome, rows, ms: performance.now() - cutAt }
}

t.test('a streamed read whose connection the server kills fails within the statement bound, and the pool serves the next read', async (t) => {
  const db = await openMysql(urlFor('poolMax=1&statementTimeoutMs=2000'))
  t.teardown(() => db.close())
  const { outcome, rows, ms } = await cutMidRead(db, async (id) => {
    const admin = await connectTo(adminUrl())
    await admin.query('KILL ?', [id])
    await admin.end()
  }, 6000)
  t.type(outcome, DatabaseUnavailableError, `the read fails as a 503, after ${rows} of ${SERIES_ROWS} rows, ${Math.round(ms)} ms after the kill (${outcome === 'hung' ? 'it hung' : String(outcome)})`)
  t.ok(rows < SERIES_ROWS, 'never the whole result')
  t.ok(ms < 3000 + 1500, 'within the statement bound and a second')
  t.same(db.pool?.(), { inUse: 0, waiting: 0 }, 'its connection is given up')
  t.equal(await streamed(db, SERIES_HEAD), 5000, 'the only pooled connection then streams a whole read')
  t.same(await db.query({ name: 'q', sql: 'SELECT 1 AS one', params: [] }), [{ one: 1 }], 'and serves a statement')
})

t.test('a streamed read whose connection is cut (the server gone, sockets reset) fails within the statement bound', async (t) => {
  const proxy = await tcpProxy(Number(base.port || 3306))
  t.teardown(() => proxy.stop())
  const db = await openMysql(urlFor('poolMax=1&statementTimeoutMs=2000&connectTimeoutMs=500', `127.0.0.1:${proxy.port}`))
  t.teardown(() => db.close())
  const { outcome, rows, ms } = await cutMidRead(db, async () => { await proxy.stop() }, 6000)
  t.type(outcome, DatabaseUnavailableError, `the read fails as a 503, after ${rows} of ${SERIES_ROWS} rows, ${Math.round(ms)} ms after the cut (${outcome === 'hung' ? 'it hung' : String(outcome)})`)
  t.ok(ms < 3000 + 1500, 'within the statement bound and a second')
  t.same(db.pool?.(), { inUse: 0, waiting: 0 }, 'its connection is given up')
  await proxy.start()
  t.equal(await streamed(db, SERIES_HEAD), 5000, 'once the server is back, a whole read is streamed')
})

t.test('a client that pauses past the statement bound is not a silent server, and streamed reads leave no listener behind', async (t) => {
  const db = await openMysql(urlFor('poolMax=1&statementTimeoutMs=500'))
  t.teardown(() => db.close())
  // 3,000 rows of ~210 bytes: the server has sent them all (the socket's buffers hold them)
  // long before the pause ends, so only Ponte's own timer could fail the read.
  const head: Statement = { ...SERIES, sql: 'SELECT CONNECTION_ID() AS `conn`, `N`, `PAD` FROM `SERIES` WHERE `N` <= 3000 ORDER BY `N`' }
  const blocks = db.stream!(head)[Symbol.asyncIterator]()
  const first = await blocks.next()
  let rows = first.done === true ? 0 : first.value.length
  await new Promise((resolve) => setTimeout(resolve, 2000)) // past 500 ms + 1 s of an idle socket
  const rest = await (async (): Promise<unknown> => {
    try {
      for (let b = await blocks.next(); b.done !== true; b = await blocks.next()) rows += b.value.length
      return 'ended'
    } catch (err) { return err }
  })()
  t.equal(rest, 'ended', `the read ends whole after the client's pause (${String(rest)})`)
  t.equal(rows, 3000)

  const warnings: string[] = []
  const onWarning = (w: Error): void => { warnings.push(`${w.name}: ${w.message}`) }
  process.on('warning', onWarning)
  t.teardown(() => { process.off('warning', onWarning) })
  const small: Statement = { ...SERIES, sql: 'SELECT CONNECTION_ID() AS `conn`, `N`, `PAD` FROM `SERIES` WHERE `N` <= 1500 ORDER BY `N`' }
  for (let i = 0; i < 12; i++) t.equal(await streamed(db, small), 1500)
  await new Promise((resolve) => setImmediate(resolve))
  t.same(warnings, [], 'twelve streamed reads on one connection: no listener left on its socket')
})

/** What a promise rejects with (undefined when it resolves), for instanceof checks. */
async function failure (p: Promise<unknown>): Promise<unknown> {
  try { await p } catch (err) { return err }
  return undefined
}

async function closedPort (): Promise<number> {
  const s = createServer()
  s.listen(0, '127.0.0.1')
  await once(s, 'listening')
  const { port } = s.address() as AddressInfo
  await new Promise((resolve) => s.close(resolve))
  return port
}

/** A TCP proxy to the real server that can be stopped (connections cut, port closed) and started again on the same port. */
async function tcpProxy (target: number): Promise<{ port: number, stop: () => Promise<void>, start: () => Promise<void> }> {
  let server: Server | undefined
  const open = new Set<Socket>()
  let port = 0
  const start = async (): Promise<void> => {
    server = createServer((client) => {
      const upstream = tcpConnect(target, '127.0.0.1')
      for (const s of [client, upstream]) { open.add(s); s.on('error', () => undefined); s.on('close', () => open.delete(s)) }
      client.pipe(upstream).pipe(client)
    })
    server.listen(port, '127.0.0.1')
    await once(server, 'listening')
    port = (server.address() as AddressInfo).port
  }
  const stop = async (): Promise<void> => {
    open.forEach((s) => s.destroy())
    if (server?.listening === true) await new Promise((resolve) => server?.close(resolve))
  }
  await start()
  return { get port () { return port }, stop, start }
}
