// Contract: authentication, invalid input, unknown routes and the version header (design
// notes §1): every failure is an RFC 9457 problem that names what was wrong and never shows
// SQL or the legacy schema.
import t from 'tap'
import { forEachSample, request, isProblem, withKey, TEST_KEY, type Reply } from '../../helpers/contract.js'
import { legacy, bare } from '../../helpers/writes.js'

const RANGE = 'start=2026-11-23&end=2026-11-29'
const PROTECTED = [`/appointments?${RANGE}`, '/clients', '/clients/search?term=Maria', '/professionals', '/locations', '/services', '/health-insurances', '/specialties', '/clients/1', '/appointments/1']

forEachSample(t, async (t, a) => {
  const tables = a.tables
  const seen: Reply[] = [] // every answer, for the version-header check at the end
  const get = async (url: string, headers: Record<string, string> = withKey): Promise<Reply> => {
    const r = await request(a, url, headers)
    seen.push(r)
    return r
  }

  t.test('no key → 401 problem with WWW-Authenticate', async (t) => {
    for (const url of PROTECTED) {
      const r = await get(url, {})
      isProblem(t, r, 401, `GET ${url} without a key`, tables)
      t.match(String(r.headers['www-authenticate']), /^Bearer\b/i, `GET ${url}: WWW-Authenticate: Bearer`)
    }
  })

  t.test('a wrong key → 401', async (t) => {
    const wrong: Record<string, string>[] = [
      { authorization: 'Bearer not-the-key-0123456789' },
      { authorization: `Bearer ${TEST_KEY}x` },
      { authorization: `Basic ${Buffer.from(`user:${TEST_KEY}`).toString('base64')}` },
      { authorization: 'Bearer ' },
      { 'x-api-key': 'not-the-key-0123456789' }
    ]
    for (const headers of wrong) {
      const r = await get('/professionals', headers)
      isProblem(t, r, 401, `GET /professionals with ${JSON.stringify(headers)}`, tables)
      t.notOk(JSON.stringify(r.body).includes(TEST_KEY), 'the problem does not echo the key')
    }
  })

  t.test('the key works as Bearer (any case) and as X-API-Key', async (t) => {
    const good: Record<string, string>[] = [{ authorization: `Bearer ${TEST_KEY}` }, { authorization: `bearer ${TEST_KEY}` }, { 'x-api-key': TEST_KEY }]
    for (const headers of good) {
      const r = await get('/professionals', headers)
      t.equal(r.status, 200, `${Object.keys(headers)[0]}: 200`)
      t.ok(Array.isArray(r.body) && r.body.length > 0, 'and the list')
    }
  })

  t.test('health needs no key', async (t) => {
    const r = await get('/health', {})
    t.equal(r.status, 200, '/health without a key → 200')
  })

  t.test('missing start or end → 400 naming the parameter', async (t) => {
    for (const [qs, missing] of [['', 'start'], ['end=2026-11-29', 'start'], ['start=2026-11-23', 'end']] as const) {
      const b = isProblem(t, await get(`/appointments?${qs}`), 400, `GET /appointments?${qs}`, tables)
      t.ok(Array.isArray(b.errors), 'errors is a list')
      for (const e of b.errors ?? []) t.ok(typeof e.path === 'string' && typeof e.message === 'string', `error ${JSON.stringify(e)} has path and message`)
      t.ok((b.errors ?? []).some((e: any) => String(e.path).includes(missing)), `an error names ${missing}`)
    }
  })

  t.test('invalid dates → 400 naming the parameter', async (t) => {
    for (const [qs, bad] of [
      ['start=2026-02-30&end=2026-03-02', 'start'], ['start=abc&end=2026-11-29', 'start'], ['start=2026-11-23&end=abc', 'end'],
      ['start=2026-13-01&end=2026-13-02', 'start'], ['start=2026-11-23&end=2026-11-31', 'end']
    ] as const) {
      const b = isProblem(t, await get(`/appointments?${qs}`), 400, `GET /appointments?${qs}`, tables)
      t.ok((b.errors ?? []).some((e: any) => String(e.path).includes(bad)), `an error names ${bad}`)
    }
  })

  t.test('end before start, and a range over the limit → 400', async (t) => {
    isProblem(t, await get('/appointments?start=2026-11-29&end=2026-11-23'), 400, 'end before start', tables)
    // 92 days is the default most (design notes §1): 2026-09-01 … 2026-12-01 is 92 days, one more is too many.
    t.equal((await get('/appointments?start=2026-09-01&end=2026-12-01&minimal=true')).status, 200, '92 days → 200')
    const b = isProblem(t, await get('/appointments?start=2026-09-01&end=2026-12-02&minimal=true'), 400, '93 days', tables)
    t.match(b.detail, /92/, 'the detail says the limit')
    isProblem(t, await get('/appointments?start=2020-01-01&end=2030-01-01&minimal=true'), 400, 'ten years', tables)
  })

  t.test('bad filter values → 400', async (t) => {
    const b = isProblem(t, await get(`/appointments?${RANGE}&state=NOT_A_STATE`), 400, 'unknown state', tables)
    t.ok((b.errors ?? []).some((e: any) => String(e.path).includes('state')), 'an error names state')
    isProblem(t, await get(`/appointments?${RANGE}&minimal=maybe`), 400, 'minimal=maybe', tables)
    isProblem(t, await get('/professionals?enabled=maybe'), 400, 'enabled=maybe', tables)
    isProblem(t, await get('/services?enabled=2'), 400, 'enabled=2', tables)
  })

  t.test('ids of the wrong shape are unknown ids, not errors', async (t) => {
    for (const f of ['client', 'professional', 'location', 'service']) {
      const r = await get(`/appointments?${RANGE}&${f}=${encodeURIComponent("x' OR 1=1 --")}`)
      t.equal(r.status, 200, `${f}=<garbage> → 200`)
      t.same(r.body, [], `${f}=<garbage> → []`)
    }
    isProblem(t, await get('/appointments/abc'), 404, 'GET /appointments/abc', tables)
    isProblem(t, await get('/clients/abc'), 404, 'GET /clients/abc', tables)
    isProblem(t, await get(`/clients/${'9'.repeat(30)}`), 404, 'GET /clients/999…9 (30 digits)', tables)
  })

  t.test('unknown route → 404 problem', async (t) => {
    for (const url of ['/nope', '/appointments/1/nope', '/v2/appointments']) isProblem(t, await get(url), 404, `GET ${url}`, tables)
  })

  t.test('a failing statement is a problem without SQL or driver text', async (t) => {
    // Last on purpose: the appointment table goes missing for a moment.
    const db = legacy(a)
    const mapped = a.inst.model.appointment.table
    const table = bare(mapped)
    await db.rename(mapped, `${table}_gone`)
    try {
      const r = await get(`/appointments?${RANGE}`)
      t.ok(r.status >= 500, `status ${r.status}`)
      isProblem(t, r, r.status, 'a broken statement', [...tables, table])
    } finally {
      await db.rename(`${mapped}_gone`, table)
    }
    t.equal((await get(`/appointments?${RANGE}`)).status, 200, 'and serving again once the table is back')
  })

  t.test('every answer carries the interface version header', async (t) => {
    t.ok(seen.length > 30, `${seen.length} answers seen`)
    const statuses = new Set(seen.map((r) => r.status))
    for (const s of [200, 400, 401, 404]) t.ok(statuses.has(s), `answers with ${s} were seen`)
    const missing = seen.filter((r) => typeof r.headers['ponte-interface-version'] !== 'string' || r.headers['ponte-interface-version'] === '')
    t.same(missing.map((r) => `${r.status} ${r.text.slice(0, 80)}`), [], 'ponte-interface-version on every answer')
    t.equal(new Set(seen.map((r) => r.headers['ponte-interface-version'])).size, 1, 'one version throughout')
  })
})
