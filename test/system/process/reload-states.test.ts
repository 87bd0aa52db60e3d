// A mapping whose states change under a running Ponte, then `kill -HUP`: /openapi.json and the
// /docs page name the reloaded mapping's states in their enums (generated clients and the
// page's "try it out" offer what is served), and PATCH …/state and `?state=` take the new name
// and refuse the removed one. On every test database.
import t from 'tap'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testDialects } from '../../helpers/contract.js'
import { scratchOn } from '../../helpers/scratch-servers.js'
import { narrowCodeMapping, narrowCodeSchema } from '../../helpers/narrow-code-clinic.js'
import { hup, startServer, type ServerProcess } from '../../helpers/server-process.js'

const KEY = 'reload-states-key-0123456789'
const SCHEMA = narrowCodeSchema([[7, 'Dr. Seven']])
const MAPPING = narrowCodeMapping('reload-states')
// The clinic calls its confirmed appointments approved from now on: same code (1), new name.
const RENAMED = MAPPING.replaceAll('CONFIRMED', 'APPROVED')
const DAY = '2031-03-04'

/** The state enums wherever the document names a state: the answers, the list filter, PATCH …/state. */
async function stateEnums (server: ServerProcess, path: string): Promise<{ answer: string[], filter: string[], patch: string[] }> {
  const res = await fetch(server.url(path))
  const doc = await res.json() as any
  return {
    answer: doc.components.schemas.Appointment.properties.state.enum,
    filter: doc.paths['/appointments'].get.parameters.find((p: { name: string }) => p.name === 'state').schema.enum,
    patch: doc.paths['/appointments/{id}/state'].patch.requestBody.content['application/json'].schema.properties.state.enum
  }
}

for (const dialect of testDialects()) {
  t.test(dialect, async (t) => {
    const s = await scratchOn(t, dialect, SCHEMA, MAPPING)
    const dir = mkdtempSync(join(tmpdir(), 'ponte-reload-states-'))
    t.teardown(() => rmSync(dir, { recursive: true, force: true }))
    writeFileSync(join(dir, 'mapping.yaml'), MAPPING)
    const server = await startServer({ DATABASE_URL: s.url, MAPPING: join(dir, 'mapping.yaml'), API_KEYS: KEY, RATE_LIMIT_PER_MINUTE: '0', IDEMPOTENCY_STORE: ':memory:' })
    t.teardown(() => server.stop())
    const call = async (method: string, path: string, body?: object): Promise<{ status: number, body: any }> => {
      const res = await fetch(server.url(path), {
        method,
        headers: { authorization: `Bearer ${KEY}`, ...body ? { 'content-type': 'application/json' } : {} },
        ...body ? { body: JSON.stringify(body) } : {}
      })
      const text = await res.text()
      return { status: res.status, body: (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text }
    }
    const stored = async (): Promise<number[]> => (await s.rows('SELECT st FROM appt ORDER BY aid')).map((r) => Number(r.st))
    const listed = async (state: string) => await call('GET', `/appointments?start=${DAY}&end=${DAY}&state=${state}`)

    const before = { answer: ['WAITING', 'CONFIRMED', 'UNKNOWN'], filter: ['WAITING', 'CONFIRMED'], patch: ['WAITING', 'CONFIRMED'] }
    t.same(await stateEnums(server, '/openapi.json'), before, 'at start: /openapi.json names the mapping\'s states')
    t.same(await stateEnums(server, '/docs/json'), before, 'and so does the document /docs shows')

    const booked = await call('POST', '/appointments', { date: DAY, hour: '09:00', client: '1', professional: '7' })
    t.equal(booked.status, 200, JSON.stringify(booked.body))
    const id = booked.body.id as string
    t.equal((await call('PATCH', `/appointments/${id}/state`, { state: 'APPROVED' })).status, 400, 'before the reload APPROVED is no state')

    writeFileSync(join(dir, 'mapping.yaml'), RENAMED)
    t.equal((await hup(server)).msg, 'mapping reloaded', 'the reload went through')

    const after = { answer: ['WAITING', 'APPROVED', 'UNKNOWN'], filter: ['WAITING', 'APPROVED'], patch: ['WAITING', 'APPROVED'] }
    t.same(await stateEnums(server, '/openapi.json'), after, 'after it: /openapi.json names the reloaded states')
    t.same(await stateEnums(server, '/docs/json'), after, 'and so does the document /docs shows')
    const yaml = await (await fetch(server.url('/docs/yaml'))).text()
    t.match(yaml, /- APPROVED\n/, '/docs/yaml lists the new state')
    t.notMatch(yaml, /- CONFIRMED\n/, 'and not the removed one')

    const removed = await call('PATCH', `/appointments/${id}/state`, { state: 'CONFIRMED' })
    t.equal(removed.status, 400, 'the removed state is refused')
    t.same(removed.body.errors?.map((e: { path: string }) => e.path), ['/body/state'], 'naming the state')
    t.match(removed.body.errors?.[0]?.message, /WAITING, APPROVED/, 'and the states there are now')
    t.same(await stored(), [0], 'nothing is written')
    t.equal((await listed('CONFIRMED')).status, 400, '?state= refuses the removed state too')

    const approved = await call('PATCH', `/appointments/${id}/state`, { state: 'APPROVED' })
    t.equal(approved.status, 200, `the new state is taken (${JSON.stringify(approved.body)})`)
    t.same(await stored(), [1], 'stored as the code the mapping gives it')
    t.equal((await call('GET', `/appointments/${id}`)).body.state, 'APPROVED', 'and read back by its new name')
    const list = await listed('APPROVED')
    t.equal(list.status, 200)
    t.same(list.body.map((a: { id: string }) => a.id), [id], '?state=APPROVED lists it')
  })
}
