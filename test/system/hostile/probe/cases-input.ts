// Hostile cases on what a request says: malformed and extreme bodies, content types and
// encodings, injection strings in every query parameter and body field, impossible dates
// and hours, huge limits, odd ids, keys and scopes (docs/interface.md, "input" and "limits").
import { outcome, type Case, type Probe } from './case.js'
import { READ_KEY } from './target.js'
import { call, isProblem, leaks, names, type Answer } from './wire.js'

const INJECTIONS = ["' OR '1'='1", '1; DROP TABLE AGENDA--', "1' UNION SELECT NULL--", '%', '_', '\\', '$1', '@p0', '?', '"; SELECT 1; --', '1)) OR ((1=1']

/** Every answer to an injected value: refused (400/404) as a problem, or an answer; never 5xx, never SQL text. */
function clean (answers: Answer[]): [boolean, string] {
  const bad = answers.filter(a => a.status >= 500 || leaks(a) || (a.status >= 400 && !isProblem(a, a.status)))
  const statuses = [...new Set(answers.map(a => a.status))].join('/')
  return [bad.length === 0, `${answers.length} requests, statuses ${statuses}${bad.length > 0 ? `, bad: ${bad[0].status} ${bad[0].text.slice(0, 80)}` : ''}`]
}

async function injectQuery (p: Probe, path: string, params: string[], fixed: Record<string, string>): Promise<[Answer[], boolean]> {
  return await p.unchanged(async () => {
    const out: Answer[] = []
    for (const name of params) {
      for (const value of INJECTIONS) {
        const q = new URLSearchParams({ ...fixed, [name]: value })
        out.push(await call(p.base, 'GET', `${path}?${q.toString()}`))
      }
    }
    return out
  })
}

const RANGE = { start: '2026-12-01', end: '2026-12-02' }

function queryInjection (path: string, params: string[], fixed: Record<string, string> = {}): Case {
  return {
    name: `injection in every query parameter of GET ${path}`,
    expects: `each of ${INJECTIONS.length} injection strings in each of ${params.join(', ')}: 200 or a 400 problem naming it, never 5xx or SQL text, nothing written`,
    keptBy: 'test/system/hostile/hostile.test.ts',
    run: async (p) => {
      const [answers, same] = await injectQuery(p, path, params, fixed)
      const [ok, got] = clean(answers)
      return outcome({ clean: ok, 'nothing written': same }, got)
    }
  }
}

async function booking (p: Probe, change: Record<string, unknown>): Promise<[Answer, boolean]> {
  const s = await p.slot()
  const body = { date: s.date, hour: s.hour, client: '1', professional: s.professional, ...change }
  return await p.unchanged(async () => await call(p.base, 'POST', '/appointments', { body }))
}

export const inputCases: Case[] = [
  queryInjection('/appointments', ['start', 'end', 'location', 'service', 'professional', 'client', 'state', 'minimal'], RANGE),
  queryInjection('/availability', ['start', 'end', 'professional', 'service', 'location', 'specialty', 'healthInsurance'], RANGE),
  queryInjection('/clients/search', ['term', 'limit', 'offset'], { term: 'Maria' }),
  queryInjection('/clients', ['limit', 'offset']),
  queryInjection('/professionals', ['location', 'service', 'healthInsurance', 'specialty', 'enabled']),
  queryInjection('/services', ['location', 'professional', 'healthInsurance', 'specialty', 'plan', 'client', 'enabled']),
  queryInjection('/locations', ['service', 'professional', 'specialty', 'client']),
  queryInjection('/health-insurances', ['service', 'location', 'professional']),
  queryInjection('/specialties', ['healthInsurance', 'location', 'plan', 'professional']),
  {
    name: 'injection in every path id',
    expects: 'each injection string as the id of every GET by id: 404 (or 400) problem, never 5xx or SQL text',
    keptBy: 'test/system/hostile/hostile.test.ts',
    run: async (p) => {
      const out: Answer[] = []
      for (const r of ['appointments', 'clients', 'professionals', 'locations', 'services', 'health-insurances', 'specialties']) {
        for (const v of INJECTIONS) out.push(await call(p.base, 'GET', `/${r}/${encodeURIComponent(v)}`))
      }
      const [ok, got] = clean(out)
      return outcome({ clean: ok, 'only 400/404': out.every(a => a.status === 404 || a.status === 400) }, got)
    }
  },
  {
    name: 'injection in every field of POST /appointments',
    expects: 'each injection string in each id field of a booking: a 400 naming that field, nothing written',
    keptBy: 'test/system/hostile/hostile.test.ts',
    run: async (p) => {
      const s = await p.slot()
      const fields = ['client', 'professional', 'service', 'location', 'healthInsurance', 'plan', 'date', 'hour']
      const [answers, same] = await p.unchanged(async () => {
        const out: Array<[string, Answer]> = []
        for (const f of fields) {
          for (const v of INJECTIONS.slice(0, 4)) {
            out.push([f, await call(p.base, 'POST', '/appointments', { body: { date: s.date, hour: s.hour, client: '1', professional: s.professional, [f]: v } })])
          }
        }
        return out
      })
      const wrong = answers.filter(([f, a]) => !(a.status === 400 && names(a, `/body/${f}`)) || leaks(a))
      return outcome({ 'each 400 naming its field': wrong.length === 0, 'nothing written': same }, `${answers.length} bookings${wrong.length > 0 ? `; ${wrong[0][0]} → ${wrong[0][1].status} ${wrong[0][1].text.slice(0, 100)}` : ''}`)
    }
  },
  {
    name: 'injection strings stored as text',
    expects: 'POST /clients and PATCH /clients/{id} with injection strings as name, description-free fields and e-mail: stored and read back exactly, or a 400 naming the field; the tables intact',
    keptBy: 'test/system/hostile/hostile.test.ts',
    run: async (p) => {
      const problems: string[] = []
      for (const v of INJECTIONS.slice(0, 6)) {
        const name = `Ana ${v}`
        const a = await call(p.base, 'POST', '/clients', { body: { name, phone: '+5511912345678' } })
        if (a.status === 200) {
          const back = await call(p.base, 'GET', `/clients/${a.json.id}`)
          if (back.json?.name !== name) problems.push(`name ${JSON.stringify(name)} read back ${JSON.stringify(back.json?.name)}`)
          const patch = await call(p.base, 'PATCH', `/clients/${a.json.id}`, { body: { name: `${name} 2` } })
          const again = await call(p.base, 'GET', `/clients/${a.json.id}`)
          if (patch.status === 200 && again.json?.name !== `${name} 2`) problems.push(`patched name read back ${JSON.stringify(again.json?.name)}`)
          if (patch.status !== 200 && !names(patch, '/body/name')) problems.push(`PATCH ${patch.status}`)
        } else if (!(a.status === 400 && names(a, '/body/name'))) problems.push(`POST ${a.status} ${a.text.slice(0, 80)}`)
      }
      const tables = await p.t.fingerprint().then(() => true, () => false)
      return outcome({ 'stored exactly or refused by name': problems.length === 0, 'tables intact': tables }, problems[0] ?? '6 names stored and read back')
    }
  },
  {
    name: 'duplicate JSON keys',
    expects: '{"state":"NOPE","state":"CONFIRMED"}: 400 naming /body/state, the state unchanged',
    keptBy: 'test/http/edge/input.test.ts',
    run: async (p) => {
      const list = await call(p.base, 'GET', `/appointments?start=${RANGE.start}&end=${RANGE.end}&state=WAITING&minimal=true`)
      const id = list.json[0].id
      const [a, same] = await p.unchanged(async () => await call(p.base, 'PATCH', `/appointments/${id}/state`, { raw: '{"state":"NOPE","state":"CONFIRMED"}', headers: { 'content-type': 'application/json' } }))
      const after = await call(p.base, 'GET', `/appointments/${id}`)
      return outcome({ '400 naming /body/state': isProblem(a, 400) && names(a, '/body/state'), 'state unchanged': after.json?.state === 'WAITING', 'nothing written': same }, `${a.status}, state ${after.json?.state}`)
    }
  },
  {
    name: 'duplicate key nested and escaped',
    expects: 'a booking body repeating "client" as "cli\\u0065nt": 400 naming /body/client, nothing written',
    keptBy: 'test/unit/plugins/repeated-key.test.ts',
    run: async (p) => {
      const s = await p.slot()
      const [a, same] = await p.unchanged(async () => await call(p.base, 'POST', '/appointments', { raw: `{"date":"${s.date}","hour":"${s.hour}","client":"1","cli\\u0065nt":"2","professional":"${s.professional}"}`, headers: { 'content-type': 'application/json' } }))
      return outcome({ '400 naming /body/client': isProblem(a, 400) && names(a, '/body/client'), 'nothing written': same }, `${a.status}`)
    }
  },
  {
    name: 'body nested 10,000 deep',
    expects: 'a JSON body nested 10,000 arrays deep: 400 problem, nothing written, no crash',
    keptBy: 'test/system/hostile/hostile.test.ts',
    run: async (p) => {
      const [a, same] = await p.unchanged(async () => await call(p.base, 'POST', '/clients', { raw: `{"name":${'['.repeat(10_000)}${']'.repeat(10_000)}}`, headers: { 'content-type': 'application/json' } }))
      return outcome({ '400 problem': isProblem(a, 400), 'nothing written': same }, `${a.status}`)
    }
  },
  {
    name: 'deep body with Idempotency-Key',
    expects: 'a 3,000-level body with an Idempotency-Key: the same 400 as without the key, not 503',
    keptBy: 'test/unit/plugins/idempotency.test.ts',
    run: async (p) => {
      const raw = `{"name":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`
      const without = await call(p.base, 'POST', '/clients', { raw, headers: { 'content-type': 'application/json' } })
      const [withKey, same] = await p.unchanged(async () => await call(p.base, 'POST', '/clients', { raw, headers: { 'content-type': 'application/json', 'idempotency-key': `deep-${Date.now()}` } }))
      return outcome({ '400 both': isProblem(without, 400) && isProblem(withKey, 400), 'nothing written': same }, `${without.status} / ${withKey.status}`)
    }
  },
  {
    name: 'body just over 64 KB',
    expects: 'a 70 KB JSON body: 413 problem, nothing written',
    keptBy: 'test/system/hostile/hostile.test.ts',
    run: async (p) => {
      const [a, same] = await p.unchanged(async () => await call(p.base, 'POST', '/clients', { body: { name: 'Big Body', phone: '+5511987650000', email: `${'a'.repeat(70_000)}@x.com` } }))
      return outcome({ '413 problem': isProblem(a, 413), 'nothing written': same }, `${a.status}`)
    }
  },
  {
    name: 'invalid JSON',
    expects: 'a truncated JSON body: 400 problem, nothing written',
    keptBy: 'test/http/edge/framing.test.ts',
    run: async (p) => {
      const [a, same] = await p.unchanged(async () => await call(p.base, 'POST', '/clients', { raw: '{"name": "Ana", "phone": ', headers: { 'content-type': 'application/json' } }))
      return outcome({ '400 problem': isProblem(a, 400), 'nothing written': same }, `${a.status}`)
    }
  },
  {
    name: 'empty body',
    expects: 'POST /appointments with Content-Type JSON and no body: 400 problem, nothing written',
    keptBy: 'test/system/hostile/hostile.test.ts',
    run: async (p) => {
      const [a, same] = await p.unchanged(async () => await call(p.base, 'POST', '/appointments', { raw: '', headers: { 'content-type': 'application/json' } }))
      return outcome({ '400 problem': isProblem(a, 400), 'nothing written': same }, `${a.status}`)
    }
  },
  {
    name: 'wrong content types',
    expects: 'a JSON booking sent as text/plain, form data and XML: 415 problem each, nothing written',
    keptBy: 'test/http/edge/input.test.ts',
    run: async (p) => {
      const [answers, same] = await p.unchanged(async () => await Promise.all(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'].map(async type =>
        await call(p.base, 'POST', '/clients', { raw: JSON.stringify({ name: 'Wrong Type', phone: '+5511987650000' }), headers: { 'content-type': type } }))))
      return outcome({ '415 each': answers.every(a => isProblem(a, 415)), 'nothing written': same }, answers.map(a => a.status).join(','))
    }
  },
  {
    name: 'compressed body and foreign charset',
    expects: 'Content-Encoding: gzip and charset=latin1: 415 problem each, nothing written',
    keptBy: 'test/http/edge/input.test.ts',
    run: async (p) => {
      const body = JSON.stringify({ name: 'Encoded Body', phone: '+5511987650000' })
      const [answers, same] = await p.unchanged(async () => [
        await call(p.base, 'POST', '/clients', { raw: body, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } }),
        await call(p.base, 'POST', '/clients', { raw: body, headers: { 'content-type': 'application/json; charset=latin1' } })
      ])
      return outcome({ '415 each': answers.every(a => isProblem(a, 415)), 'nothing written': same }, answers.map(a => a.status).join(','))
    }
  },
  {
    name: 'invalid UTF-8 in the body',
    expects: 'a name with the bytes C3 28 and a lone FF: 400 problem, nothing written',
    keptBy: 'test/http/edge/input.test.ts',
    run: async (p) => {
      const raw = Buffer.concat([Buffer.from('{"name":"Jo'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('o","phone":"+5511987650000"}')])
      const [a, same] = await p.unchanged(async () => await call(p.base, 'POST', '/clients', { raw, headers: { 'content-type': 'application/json' } }))
      return outcome({ '400 problem': isProblem(a, 400), 'nothing written': same }, `${a.status}`)
    }
  },
  {
    name: 'NUL and lone surrogate',
    expects: 'a name holding U+0000, and one holding a lone surrogate: 400 naming /body/name, nothing written',
    keptBy: 'test/http/edge/input.test.ts',
    run: async (p) => {
      const [answers, same] = await p.unchanged(async () => [
        await call(p.base, 'POST', '/clients', { raw: '{"name":"Ana\\u0000Maria","phone":"+5511987650000"}', headers: { 'content-type': 'application/json' } }),
        await call(p.base, 'POST', '/clients', { raw: '{"name":"Ana\\ud800Maria","phone":"+5511987650000"}', headers: { 'content-type': 'application/json' } })
      ])
      return outcome({ '400 naming name': answers.every(a => isProblem(a, 400) && names(a, '/body/name')), 'nothing written': same }, answers.map(a => a.status).join(','))
    }
  },
  {
    name: 'prototype keys in the body',
    expects: 'a booking body with __proto__ and constructor keys: a 400 problem, or answered as if they were not there; never 5xx, nothing else changed',
    keptBy: 'test/system/hostile/hostile.test.ts',
    run: async (p) => {
      const [a, same] = await p.unchanged(async () => await call(p.base, 'PATCH', '/appointments/189168/state', { raw: '{"__proto__":{"state":"CONFIRMED"},"constructor":{"prototype":{"x":1}}}', headers: { 'content-type': 'application/json' } }))
      return outcome({ '400 problem': isProblem(a, 400), 'nothing written': same }, `${a.status}`)
    }
  },
  {
    name: 'wrong JSON types',
    expects: 'a booking with client as a number, hour as an array and date as null: 400 naming each, nothing written',
    keptBy: 'test/system/hostile/hostile.test.ts',
    run: async (p) => {
      const [a, same] = await booking(p, { client: 1, hour: ['08:00'], date: null })
      return outcome({ 'names all three': isProblem(a, 400) && names(a, '/body/client') && names(a, '/body/hour') && names(a, '/body/date'), 'nothing written': same }, `${a.status} ${JSON.stringify(a.json?.errors?.map((e: any) => e.path))}`)
    }
  },
  {
    name: 'impossible and extreme dates',
    expects: 'appointments from 0001-01-01, to 9999-12-31, on 2026-02-30, and a booking on 2200-01-01: each a 400 naming the date',
    keptBy: 'test/http/availability/extreme-dates.test.ts',
    run: async (p) => {
      const gets = await Promise.all([['start', '0001-01-01', '2026-12-01'], ['end', '2026-12-01', '9999-12-31'], ['start', '2026-02-30', '2026-03-01']].map(async ([name, s, e]) =>
        [name, await call(p.base, 'GET', `/appointments?start=${s}&end=${e}`)] as const))
      const [post, same] = await booking(p, { date: '2200-01-01' })
      const ok = gets.every(([name, a]) => isProblem(a, 400) && names(a, `/querystring/${name}`)) && isProblem(post, 400) && names(post, '/body/date')
      return outcome({ 'each 400 naming the date': ok, 'nothing written': same }, [...gets.map(([, a]) => a.status), post.status].join(','))
    }
  },
  {
    name: 'impossible hours',
    expects: 'bookings at 24:00, 23:60, 08:00:00 and -1:00 (docs/interface.md: hours in are HH:MM, a one-digit hour read as its two-digit form): each a 400 naming /body/hour, nothing written',
    keptBy: 'test/system/hostile/probe.test.ts',
    run: async (p) => {
      const s = await p.slot()
      const [answers, same] = await p.unchanged(async () => await Promise.all(['24:00', '23:60', '08:00:00', '-1:00'].map(async hour =>
        await call(p.base, 'POST', '/appointments', { body: { date: s.date, hour, client: '1', professional: s.professional } }))))
      return outcome({ '400 naming hour': answers.every(a => isProblem(a, 400) && names(a, '/body/hour')), 'nothing written': same }, answers.map(a => a.status).join(','))
    }
  },
  {
    name: 'range over the limit',
    expects: 'GET /appointments over 93 days and /availability over 32 days: 400 problem each',
    keptBy: 'test/http/edge/errors.test.ts',
    run: async (p) => {
      const a = await call(p.base, 'GET', '/appointments?start=2026-01-01&end=2026-04-03')
      const b = await call(p.base, 'GET', '/availability?start=2026-12-01&end=2027-01-01')
      return outcome({ '400 each': isProblem(a, 400) && isProblem(b, 400) }, `${a.status},${b.status}`)
    }
  },
  {
    name: 'huge limits and offsets',
    expects: 'limit=501, limit=99999999999999999999, offset=99999999999999999999, offset=-1: 400 naming each; offset=1000000: 200 []',
    keptBy: 'test/http/edge/input.test.ts',
    run: async (p) => {
      const bad = await Promise.all([['limit', '501'], ['limit', '99999999999999999999'], ['offset', '99999999999999999999'], ['offset', '-1']].map(async ([k, v]) =>
        [k, await call(p.base, 'GET', `/clients?${k}=${v}`)] as const))
      const far = await call(p.base, 'GET', '/clients?offset=1000000')
      return outcome({ '400 naming each': bad.every(([k, a]) => isProblem(a, 400) && names(a, `/querystring/${k}`)), 'far offset []': far.status === 200 && far.json?.length === 0 }, [...bad.map(([, a]) => a.status), far.status].join(','))
    }
  },
  {
    name: 'negative, padded and huge ids',
    expects: '/clients/-1, /appointments/0189168, /professionals/99999999999999999999: 404 problem; a booking for client -1: 400 naming /body/client',
    keptBy: 'test/unit/mapping/compile/ids.test.ts',
    run: async (p) => {
      const gets = await Promise.all(['/clients/-1', '/appointments/0189168', '/professionals/99999999999999999999'].map(async path => await call(p.base, 'GET', path)))
      const [post, same] = await booking(p, { client: '-1' })
      return outcome({ '404 each': gets.every(a => isProblem(a, 404)), '400 client': isProblem(post, 400) && names(post, '/body/client'), 'nothing written': same }, [...gets.map(a => a.status), post.status].join(','))
    }
  },
  {
    name: 'unicode names and phones',
    expects: 'a client named "Zoë Ñandú 李小龍 😀" reads back exactly (or 400 naming name, writing nothing); a phone in Arabic-Indic digits is a 400 naming phone or reads back as that number in E.164',
    keptBy: 'test/system/hostile/probe.test.ts',
    run: async (p) => {
      const name = 'Zoë Ñandú 李小龍 😀'
      const [a, nameSame] = await p.unchanged(async () => await call(p.base, 'POST', '/clients', { body: { name, phone: '+5511987651234' } }))
      const back = a.status === 200 ? await call(p.base, 'GET', `/clients/${a.json.id}`) : undefined
      const nameOk = back !== undefined ? back.json?.name === name : isProblem(a, 400) && names(a, '/body/name') && nameSame
      const [b, same] = await p.unchanged(async () => await call(p.base, 'POST', '/clients', { body: { name: 'Arabic Digits', phone: '+٥٥١١٩٨٧٦٥٤٣٢١' } }))
      const phoneOk = b.status === 200 ? b.json?.phone === '+5511987654321' : isProblem(b, 400) && names(b, '/body/phone')
      return outcome({ 'name exact': nameOk, 'phone refused or exact': phoneOk, 'refused phone wrote nothing': b.status === 200 || same }, `name ${a.status} → ${JSON.stringify(back?.json?.name)}; phone ${b.status} ${b.json?.phone ?? ''}`)
    }
  },
  {
    name: 'search terms at the edges',
    expects: 'term "%" and "_" match nobody (200 []); a 201-character term is a 400 naming term',
    keptBy: 'test/system/hostile/probe.test.ts',
    run: async (p) => {
      const wild = await Promise.all(['%', '_', '%25'].map(async t => await call(p.base, 'GET', `/clients/search?term=${encodeURIComponent(t)}`)))
      const long = await call(p.base, 'GET', `/clients/search?term=${'a'.repeat(201)}`)
      return outcome({ 'wildcards match nobody': wild.every(a => a.status === 200 && a.json?.length === 0), '400 long': isProblem(long, 400) && names(long, '/querystring/term') }, `${wild.map(a => `${a.status}:${a.json?.length}`).join(',')}; ${long.status}`)
    }
  },
  {
    name: 'unknown and repeated query parameters',
    expects: 'client[]=5, TERM=x and professional twice on GET /appointments: 400 naming each',
    keptBy: 'test/http/edge/input.test.ts',
    run: async (p) => {
      const a = await call(p.base, 'GET', '/appointments?start=2026-12-01&end=2026-12-01&client[]=5')
      const b = await call(p.base, 'GET', '/clients/search?TERM=x&term=y')
      const c = await call(p.base, 'GET', '/appointments?start=2026-12-01&end=2026-12-01&professional=1&professional=2')
      return outcome({ 'each 400 naming it': names(a, '/querystring/client[]') && names(b, '/querystring/TERM') && names(c, '/querystring/professional') }, `${a.status},${b.status},${c.status}`)
    }
  },
  {
    name: 'keys, scopes and methods',
    expects: 'no key and a wrong key: 401 with WWW-Authenticate; a read key booking: 403; DELETE /appointments/1: 405 with Allow; an unknown route: 404 problem',
    keptBy: 'test/http/edge/errors.test.ts',
    run: async (p) => {
      const none = await call(p.base, 'GET', '/professionals', { key: null })
      const wrong = await call(p.base, 'GET', '/professionals', { key: 'not-a-key-0123456789' })
      const [read, same] = await p.unchanged(async () => await call(p.base, 'POST', '/clients', { key: READ_KEY, body: { name: 'Read Key', phone: '+5511987650000' } }))
      const del = await call(p.base, 'DELETE', '/appointments/1')
      const unknown = await call(p.base, 'GET', '/nothing-here')
      return outcome({
        '401 + WWW-Authenticate': [none, wrong].every(a => isProblem(a, 401) && a.headers['www-authenticate'] !== undefined),
        '403 read key': isProblem(read, 403) && same,
        '405 + Allow': isProblem(del, 405) && del.headers.allow !== undefined,
        '404 problem': isProblem(unknown, 404)
      }, [none, wrong, read, del, unknown].map(a => a.status).join(','))
    }
  },
  {
    name: 'X-Request-Id with CRLF and overlong',
    expects: 'a request id holding spaces, and one of 300 characters: answered with a fresh id of ours, not echoed',
    keptBy: 'test/http/edge/keys-and-ids.test.ts',
    run: async (p) => {
      const a = await call(p.base, 'GET', '/health', { key: null, headers: { 'x-request-id': 'evil id; drop' } })
      const b = await call(p.base, 'GET', '/health', { key: null, headers: { 'x-request-id': 'a'.repeat(300) } })
      const fresh = (x: Answer): boolean => /^[0-9a-f-]{36}$/.test(x.headers['x-request-id'] ?? '')
      return outcome({ 'fresh ids': fresh(a) && fresh(b) }, `${a.headers['x-request-id']}`)
    }
  },
  {
    name: 'invalid state and impossible reschedule',
    expects: 'PATCH state to "NOPE" and PATCH time to 2026-02-30: 400 naming the field, the appointment unchanged',
    keptBy: 'test/http/bookings/bookings.test.ts',
    run: async (p) => {
      const id = '189168'
      const before = await call(p.base, 'GET', `/appointments/${id}`)
      const [answers, same] = await p.unchanged(async () => [
        await call(p.base, 'PATCH', `/appointments/${id}/state`, { body: { state: 'NOPE' } }),
        await call(p.base, 'PATCH', `/appointments/${id}/time`, { body: { date: '2026-02-30', hour: '08:00' } })
      ])
      const after = await call(p.base, 'GET', `/appointments/${id}`)
      return outcome({ '400 naming state': names(answers[0], '/body/state'), '400 naming date': names(answers[1], '/body/date'), unchanged: same && after.text === before.text }, answers.map(a => a.status).join(','))
    }
  },
  {
    name: 'booking in the past',
    expects: 'a booking yesterday at 08:00: 400 naming the date, nothing written',
    keptBy: 'test/http/bookings/bookings.test.ts',
    run: async (p) => {
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
      const [a, same] = await booking(p, { date: yesterday, hour: '08:00' })
      return outcome({ '400 problem': isProblem(a, 400) && (names(a, '/body/date') || names(a, '/body/hour')), 'nothing written': same }, `${a.status}`)
    }
  }
]
