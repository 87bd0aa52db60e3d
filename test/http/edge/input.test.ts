// Contract: input that is not what the interface names is refused, never guessed at (design
// notes §1). An unknown, repeated or malformed query parameter is a 400 naming it (a mistyped
// filter must not widen a list); numbers and booleans in query strings are read strictly;
// text with NUL, control characters or lone surrogates is a 400 wherever it comes in; bodies are
// uncompressed UTF-8 or a 415. Every refused write leaves the database as it was.
import t from 'tap'
import { findBusyRange, isProblem, withKey, request } from '../../helpers/contract.js'
import { forEachSample, legacy, send, type TestApp } from '../../helpers/writes.js'

/** Every legacy table, dumped: the same before and after a refused write. */
async function snapshot (a: TestApp): Promise<string> {
  const db = legacy(a)
  const dumps: string[] = []
  for (const table of a.tables) dumps.push(await db.dump(table))
  return dumps.join('\n')
}

/** A 400 problem whose errors[] name exactly this place (e.g. `/querystring/client[]`). */
function names (t: any, r: { status: number, body: any, headers: Record<string, unknown> }, status: number, path: string, what: string, message?: RegExp): void {
  const b = isProblem(t, r, status, what)
  const hit = (b.errors ?? []).find((e: any) => e.path === path)
  t.ok(hit, `${what}: errors[] names ${path}`, { errors: b.errors })
  if (message && hit) t.match(hit.message, message, `${what}: ${hit.message}`)
}

forEachSample(t, async (t, a) => {
  const busy = await findBusyRange(t, a)
  const range = `start=${busy.start}&end=${busy.end}`

  t.test('an unknown query parameter is a 400 naming it, not a filter dropped', async (t) => {
    const all = await request(a, `/appointments?${range}&minimal=true`, withKey)
    t.ok(all.body.length > 1, `${all.body.length} appointments in the range`)
    names(t, await request(a, `/appointments?${range}&client[]=5`, withKey), 400, '/querystring/client[]', 'client[]=5', /not a parameter/)
    names(t, await request(a, `/appointments?${range}&Client=5`, withKey), 400, '/querystring/Client', 'Client=5 (wrong case)')
    names(t, await request(a, '/clients/search?TERM=maria', withKey), 400, '/querystring/TERM', 'TERM=')
    names(t, await request(a, '/clients/search?term=maria&q=1', withKey), 400, '/querystring/q', 'q= beside term')
    names(t, await request(a, '/professionals?enabledd=true', withKey), 400, '/querystring/enabledd', 'a misspelt lookup filter')
    names(t, await request(a, '/clients?page=2', withKey), 400, '/querystring/page', 'page= on the client list')
    names(t, await request(a, `/availability?${range}&professionals=1`, withKey), 400, '/querystring/professionals', 'a misspelt availability filter')
    // A route with no query parameters takes none.
    names(t, await request(a, '/clients/1?fields=name', withKey), 400, '/querystring/fields', 'a parameter on a detail route')
    names(t, await request(a, '/professionals/1?x=1', withKey), 400, '/querystring/x', 'a parameter on a lookup detail')
  })

  t.test('a parameter given twice is a 400 naming it', async (t) => {
    names(t, await request(a, `/appointments?start=${busy.start}&start=${busy.end}&end=${busy.end}`, withKey), 400, '/querystring/start', 'start twice', /once/)
    names(t, await request(a, `/appointments?${range}&professional=1&professional=2`, withKey), 400, '/querystring/professional', 'professional twice', /once/)
    names(t, await request(a, '/clients?limit=5&limit=6', withKey), 400, '/querystring/limit', 'limit twice', /once/)
  })

  t.test('numbers and booleans in a query are read strictly', async (t) => {
    for (const bad of ['0x10', '%205', '5%20', '%2B5', '-5', '5.0', '1e1', '05', '', 'Infinity']) {
      names(t, await request(a, `/clients?limit=${bad}`, withKey), 400, '/querystring/limit', `limit=${bad}`)
    }
    names(t, await request(a, '/clients?limit=501', withKey), 400, '/querystring/limit', 'limit over the maximum')
    names(t, await request(a, '/clients?offset=99999999999999999999', withKey), 400, '/querystring/offset', 'a 20-digit offset')
    const five = await request(a, '/clients?limit=5&offset=0', withKey)
    t.equal(five.status, 200, 'limit=5 → 200')
    t.equal(five.body.length, 5, 'five clients')
    for (const bad of ['TRUE', '1', 'yes', 'true%20', '']) {
      names(t, await request(a, `/appointments?${range}&minimal=${bad}`, withKey), 400, '/querystring/minimal', `minimal=${bad}`)
    }
    t.equal((await request(a, `/appointments?${range}&minimal=true`, withKey)).status, 200, 'minimal=true → 200')
    t.equal((await request(a, '/professionals?enabled=false', withKey)).status, 200, 'enabled=false → 200')
  })

  t.test('control characters, lone surrogates and bad encodings in the query or path are a 400 naming the field', async (t) => {
    for (const term of ['a%00b', 'a%01b', 'a%7Fb', 'a%0Ab', 'a%09b']) {
      names(t, await request(a, `/clients/search?term=${term}`, withKey), 400, '/querystring/term', `term=${term}`, /control/)
    }
    names(t, await request(a, '/clients/search?term=%ED%A0%80', withKey), 400, '/querystring/term', 'a UTF-8-encoded lone surrogate', /UTF-8/)
    names(t, await request(a, '/clients/search?term=%E0%A4%A', withKey), 400, '/querystring/term', 'a truncated percent-encoding', /UTF-8/)
    names(t, await request(a, `/appointments?${range}&professional=1%00`, withKey), 400, '/querystring/professional', 'an id filter with NUL')
    names(t, await request(a, '/clients/1%00', withKey), 400, '/params/id', 'a path id with NUL', /control/)
    names(t, await request(a, '/professionals/%01', withKey), 400, '/params/id', 'a lookup id with a control character')
    // Accents and other scripts are text like any other.
    t.equal((await request(a, `/clients/search?term=${encodeURIComponent('Conceição')}`, withKey)).status, 200, 'an accented term → 200')
  })

  t.test('a body string with NUL, control characters or a lone surrogate is a 400 and nothing is written', async (t) => {
    const before = await snapshot(a)
    const phone = '+5511955507788'
    const bodies: Array<[string, string, string]> = [
      ['{"name":"Ana\\u0000Maria","phone":"' + phone + '"}', '/body/name', 'NUL in a name'],
      ['{"name":"Ana\\ud800","phone":"' + phone + '"}', '/body/name', 'a lone high surrogate'],
      ['{"name":"\\udc00Ana","phone":"' + phone + '"}', '/body/name', 'a lone low surrogate'],
      ['{"name":"Ana Maria","phone":"' + phone + '\\u001b"}', '/body/phone', 'an escape character in a phone'],
      ['{"name":"Ana\\nMaria","phone":"' + phone + '"}', '/body/name', 'a newline in a name'],
      ['{"name":"Ana Maria","phone":"' + phone + '","email":"a\\u007f@x.com"}', '/body/email', 'DEL in an e-mail']
    ]
    for (const [body, path, what] of bodies) names(t, await send(a, 'POST', '/clients', body), 400, path, `POST /clients: ${what}`)
    names(t, await send(a, 'PATCH', '/clients/1', '{"name":"X\\u0000"}'), 400, '/body/name', 'PATCH /clients/1: NUL in a name')
    names(t, await send(a, 'POST', '/appointments', '{"date":"2030-01-07","hour":"10:00","client":"1\\u0000"}'), 400, '/body/client', 'POST /appointments: NUL in an id')
    t.equal(await snapshot(a), before, 'the database is unchanged')
    // A surrogate pair (an emoji) is well-formed: not refused for that.
    const emoji = await send(a, 'POST', '/clients', { name: 'Ana 😀', phone: '+5511955507799' })
    t.notOk(emoji.status === 400 && (emoji.body?.errors ?? []).some((e: any) => /surrogate|control/.test(e.message)), 'an emoji is not taken for a lone surrogate', { body: emoji.body })
  })

  t.test('a body that gives a key twice is a 400 naming it, and nothing is written', async (t) => {
    const before = await snapshot(a)
    const { body: appointments } = await request(a, `/appointments?${range}`, withKey)
    const open = appointments.find((x: any) => x.state === 'WAITING' || x.state === 'CONFIRMED')
    t.ok(open, 'an appointment that may still be canceled')
    // Read as JSON.parse reads it, the last value would win: a move the appointment allows.
    names(t, await send(a, 'PATCH', `/appointments/${open.id}/state`, '{"state":"NOPE","state":"CANCELED"}'), 400, '/body/state', 'PATCH state: state twice', /once/)
    names(t, await send(a, 'POST', '/clients', '{"name":"Ana Dupla","phone":"+5511955507744","phone":"+5511955507745"}'), 400, '/body/phone', 'POST /clients: phone twice')
    names(t, await send(a, 'PATCH', '/clients/1', '{"name":"A","n\\u0061me":"B"}'), 400, '/body/name', 'PATCH /clients/1: name twice, once escaped')
    t.equal(await snapshot(a), before, 'the database is unchanged')
    // The same key in two objects is no repeat.
    const two = await send(a, 'POST', '/clients', '[{"a":1},{"a":1}]')
    t.notOk((two.body?.errors ?? []).some((e: any) => /once/.test(e.message)), 'keys of sibling objects are not compared', { body: two.body })
  })

  t.test('healthInsurance and location on POST /clients take only strings', async (t) => {
    const before = await snapshot(a)
    for (const value of [['1'], { id: '1' }, 1, true, null]) {
      const r = await send(a, 'POST', '/clients', { name: 'Ana Maria Teste', phone: '+5511955507711', healthInsurance: value, location: value })
      names(t, r, 400, '/body/healthInsurance', `healthInsurance: ${JSON.stringify(value)}`, /string/)
      names(t, r, 400, '/body/location', `location: ${JSON.stringify(value)}`, /string/)
    }
    t.equal(await snapshot(a), before, 'the database is unchanged')
  })

  t.test('a compressed body, another media type or charset, or bytes that are not UTF-8 are refused and nothing is written', async (t) => {
    const before = await snapshot(a)
    const body = JSON.stringify({ name: 'Ana Maria Teste', phone: '+5511955507722' })
    for (const encoding of ['gzip', 'deflate', 'br']) {
      isProblem(t, await send(a, 'POST', '/clients', body, { 'content-encoding': encoding }), 415, `Content-Encoding: ${encoding}`)
    }
    for (const charset of ['utf-16', 'iso-8859-1', 'UTF-16LE']) {
      const r = await send(a, 'POST', '/clients', body, { 'content-type': `application/json; charset=${charset}` })
      const b = isProblem(t, r, 415, `charset=${charset}`)
      t.match(b.detail, /UTF-8/, 'the detail says what to send')
    }
    // A JSON text labelled as another media type is not read as a string to be validated.
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'application/xml']) {
      const b = isProblem(t, await send(a, 'POST', '/clients', body, { 'content-type': type }), 415, `Content-Type: ${type}`)
      t.ok(b.detail.includes(`"${type.split(';')[0]}"`), 'the detail names the media type')
      t.same(b.errors, [{ path: '/headers/content-type', message: 'must be application/json' }], 'errors[] names the header')
    }
    const latin1 = Buffer.concat([Buffer.from('{"name":"Concei'), Buffer.from([0xe7, 0xe3]), Buffer.from('o Teste","phone":"+5511955507733"}')])
    const r = await a.app.inject({ method: 'POST', url: '/clients', headers: { ...withKey, 'content-type': 'application/json' }, payload: latin1 })
    isProblem(t, { status: r.statusCode, body: JSON.parse(r.body), headers: r.headers }, 400, 'Latin-1 bytes labelled as JSON')
    t.equal(await snapshot(a), before, 'the database is unchanged')
    // Declared UTF-8, in any spelling, is what Ponte reads.
    const ok = await send(a, 'POST', '/clients', body, { 'content-type': 'application/json; charset=UTF-8' })
    t.equal(ok.status, 200, 'charset=UTF-8 is accepted', { body: ok.body })
  })
})
