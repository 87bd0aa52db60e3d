// Hostile cases of contention: the same Idempotency-Key and the same slot sent in parallel,
// the key store and the clinic's database locked by another program, Ponte's database
// connections killed mid-request (docs/operations.md, "When the database fails" and
// "Several replicas"; docs/databases/*, "How bookings keep from double booking").
import { renameSync } from 'node:fs'
import Sqlite from 'better-sqlite3'
import { healthMs, outcome, tally, type Case, type Probe } from './case.js'
import { BOUNDS, sleep } from './target.js'
import { call, isProblem, type Answer } from './wire.js'

/** The idempotency store's file held by another process's exclusive lock while `act` runs. */
async function storeLocked<T> (p: Probe, act: () => Promise<T>): Promise<T> {
  // A keyed request first, so the store's file exists to be locked.
  await call(p.base, 'POST', '/clients', { body: { name: 'Store Opener', phone: '+5511987650001' }, headers: { 'idempotency-key': `open-${Date.now()}` } })
  const db = new Sqlite(p.t.store, { timeout: 1000 })
  db.exec('BEGIN EXCLUSIVE')
  try { return await act() } finally { db.exec('ROLLBACK'); db.close() }
}

export const contentionCases: Case[] = [
  {
    name: 'Idempotency-Key store locked: keyed POST',
    expects: `the key store's file locked by another process: a keyed POST /clients answers 503 idempotency-store-unavailable with Retry-After within IDEMPOTENCY_BUSY_TIMEOUT_MS (${BOUNDS.storeBusyMs} ms) + 1 s, nothing written`,
    keptBy: 'test/system/faults/idempotency-store-locked.test.ts',
    run: async (p) => await storeLocked(p, async () => {
      const [a, same] = await p.unchanged(async () => await call(p.base, 'POST', '/clients', { body: { name: 'Locked Store', phone: '+5511987650002' }, headers: { 'idempotency-key': `locked-${Date.now()}` } }))
      return outcome({ '503 problem': isProblem(a, 503) && /idempotency-store-unavailable/.test(a.json?.type), 'Retry-After': a.headers['retry-after'] !== undefined, 'in time': a.ms < BOUNDS.storeBusyMs + 1000, 'nothing written': same }, `${a.status} in ${Math.round(a.ms)} ms`)
    })
  },
  {
    name: 'Idempotency-Key store locked: others not held',
    expects: 'while the key store is locked and a keyed POST waits: /health under 100 ms, GET /professionals and an unkeyed GET under 500 ms',
    keptBy: 'test/system/faults/idempotency-store-locked.test.ts',
    run: async (p) => await storeLocked(p, async () => {
      const keyed = call(p.base, 'POST', '/clients', { body: { name: 'Locked Store', phone: '+5511987650003' }, headers: { 'idempotency-key': `locked2-${Date.now()}` } })
      await sleep(100)
      const health = await call(p.base, 'GET', '/health', { key: null })
      const pros = await call(p.base, 'GET', '/professionals')
      const appt = await call(p.base, 'GET', '/appointments/189168')
      await keyed
      return outcome({ 'health < 100 ms': health.status === 200 && health.ms < 100, 'lookups < 500 ms': pros.status === 200 && pros.ms < 500 && appt.status === 200 && appt.ms < 500 }, `/health ${Math.round(health.ms)} ms, /professionals ${Math.round(pros.ms)} ms, by id ${Math.round(appt.ms)} ms`)
    })
  },
  {
    name: 'concurrent identical Idempotency-Keys',
    expects: 'ten identical keyed bookings at once: one appointment written; every answer a 200 with that id or a 409 problem',
    keptBy: 'test/system/hostile/probe.test.ts',
    run: async (p) => {
      const s = await p.slot()
      const client = await p.client()
      const before = await p.t.fingerprint()
      const key = `same-${Date.now()}`
      const body = { date: s.date, hour: s.hour, client, professional: s.professional }
      const answers = await Promise.all(Array.from({ length: 10 }, async () => await call(p.base, 'POST', '/appointments', { body, headers: { 'idempotency-key': key } })))
      const ids = new Set(answers.filter(a => a.status === 200).map(a => a.json?.id))
      const added = rowsAdded(before, await p.t.fingerprint(), 'AGENDA')
      return outcome({ 'one id': ids.size === 1, 'others 409': answers.every(a => a.status === 200 || isProblem(a, 409)), 'one row': added === 1 }, `${answers.map(a => a.status).join(',')}; ${added} row(s)`)
    }
  },
  {
    name: 'same Idempotency-Key, another body',
    expects: 'a key reused with another body: 422 problem naming the header, nothing written',
    keptBy: 'test/unit/plugins/idempotency.test.ts',
    run: async (p) => {
      const key = `reuse-${Date.now()}`
      await call(p.base, 'POST', '/clients', { body: { name: 'Reuse One', phone: '+5511987650004' }, headers: { 'idempotency-key': key } })
      const [a, same] = await p.unchanged(async () => await call(p.base, 'POST', '/clients', { body: { name: 'Reuse Two', phone: '+5511987650004' }, headers: { 'idempotency-key': key } }))
      return outcome({ '422 problem': isProblem(a, 422), 'nothing written': same }, `${a.status}`)
    }
  },
  {
    name: 'conflicting bookings in parallel',
    expects: 'twenty clients booking one slot at once: exactly one 200, nineteen 409 problems, one row written',
    keptBy: 'test/http/bookings/concurrency.test.ts',
    run: async (p) => {
      const s = await p.slot()
      const clients: string[] = []
      for (let i = 0; i < 20; i++) clients.push(await p.client())
      const before = await p.t.fingerprint()
      const answers = await Promise.all(clients.map(async client => await call(p.base, 'POST', '/appointments', { body: { date: s.date, hour: s.hour, client, professional: s.professional } })))
      const added = rowsAdded(before, await p.t.fingerprint(), 'AGENDA')
      const odd = answers.find(a => a.status !== 200 && a.status !== 409)
      return outcome({ 'one 200': answers.filter(a => a.status === 200).length === 1, 'others 409': answers.every(a => a.status === 200 || isProblem(a, 409)), 'one row': added === 1 }, `${tally(answers.map(a => a.status))}, ${added} row(s)${odd !== undefined ? `; ${odd.json?.detail ?? odd.text.slice(0, 100)}` : ''}`)
    }
  },
  {
    name: 'concurrent client registrations',
    expects: 'twenty POST /clients at once: twenty 200s with twenty distinct ids, twenty rows written',
    keptBy: 'test/http/bookings/concurrency.test.ts',
    run: async (p) => {
      const before = await p.t.fingerprint()
      const answers = await Promise.all(Array.from({ length: 20 }, async (_, i) => await call(p.base, 'POST', '/clients', { body: { name: `Concurrent Client ${i}`, phone: `+55119876${String(50100 + i)}` } })))
      const added = rowsAdded(before, await p.t.fingerprint(), 'PACIENTE')
      const ids = new Set(answers.filter(a => a.status === 200).map(a => a.json?.id))
      const odd = answers.find(a => a.status !== 200)
      return outcome({ 'twenty 200': answers.every(a => a.status === 200), 'distinct ids': ids.size === 20, 'twenty rows': added === 20 }, `${tally(answers.map(a => a.status))}, ${added} row(s)${odd !== undefined ? `; ${odd.json?.detail ?? odd.text.slice(0, 100)}` : ''}`)
    }
  },
  {
    name: "desk program holds another professional's appointment",
    expects: "an appointment of one professional held FOR UPDATE by the clinic's program: a booking of another professional that day answers 200 within 1 s",
    keptBy: 'test/system/faults/desk-lock.test.ts',
    only: ['mysql', 'postgres'],
    run: async (p) => await deskHoldsOther(p, async (booked) => outcome({ '200 within 1 s': booked.status === 200 && booked.ms < 1000 }, `${booked.status} in ${Math.round(booked.ms)} ms`))
  },
  {
    name: '/health during a desk lock',
    expects: "while the clinic's program holds a lock and a booking runs: /health under 100 ms",
    keptBy: 'test/system/faults/servers-mysql.test.ts',
    run: async (p) => {
      if (p.t.kind === 'sqlite') {
        const s = await p.slot()
        const client = await p.client()
        return await sqliteWriteLock(p, async () => {
          const booking = call(p.base, 'POST', '/appointments', { body: { date: s.date, hour: s.hour, client, professional: s.professional } })
          await sleep(200)
          const health = await healthMs(p.base)
          await booking
          return outcome({ 'health < 100 ms': health.ms < 100 && health.ok }, `/health ${Math.round(health.ms)} ms (median of 5)`)
        })
      }
      return await deskHoldsSame(p, async (_booked, health) => outcome({ 'health < 100 ms': health.ok && health.ms < 100 }, `/health ${Math.round(health.ms)} ms (median of 5)`))
    }
  },
  {
    name: "booking while the desk program locks that professional's day",
    expects: 'the desk holds the same professional-day: the booking waits, then answers 503/504 within the statement bound + 2 s (or 200 once released), never a double booking',
    keptBy: 'test/system/faults/servers-mysql.test.ts',
    run: async (p) => {
      if (p.t.kind === 'sqlite') {
        const s = await p.slot()
        const client = await p.client()
        const before = await p.t.fingerprint()
        const a = await sqliteWriteLock(p, async () => await call(p.base, 'POST', '/appointments', { body: { date: s.date, hour: s.hour, client, professional: s.professional } }))
        const same = before === await p.t.fingerprint()
        return outcome({ '503 in bound': isProblem(a, 503) && a.ms < BOUNDS.sqliteBusyMs + 1500, 'nothing written': same }, `${a.status} in ${Math.round(a.ms)} ms`)
      }
      return await deskHoldsSame(p, async (booked) => outcome({ 'bounded, 200/503/504': (booked.status === 200 || isProblem(booked, 503) || isProblem(booked, 504)) && booked.ms < BOUNDS.statementMs + 2000 }, `${booked.status} in ${Math.round(booked.ms)} ms`))
    }
  },
  {
    name: 'database connections killed mid-request',
    expects: "Ponte's connections killed (KILL / pg_terminate_backend) while 20 requests run: each answers 200 or a 503/504 problem, and requests are good again within 5 s",
    keptBy: 'test/system/faults/servers-postgres.test.ts',
    only: ['mysql', 'postgres'],
    run: async (p) => {
      const load = Array.from({ length: 20 }, async (_, i) => await call(p.base, 'GET', `/appointments?start=2026-11-${String(1 + i).padStart(2, '0')}&end=2026-11-${String(8 + i).padStart(2, '0')}`))
      await sleep(20)
      const killed = await p.t.killPonteConnections()
      const answers = await Promise.all(load)
      const recovered = await recovery(p)
      return outcome({ '200/503/504 only': answers.every(a => a.status === 200 || isProblem(a, 503) || isProblem(a, 504)), 'good within 5 s': recovered < 5000 }, `${killed} killed; ${[...new Set(answers.map(a => a.status))].join('/')}; good again after ${Math.round(recovered)} ms`)
    }
  },
  {
    name: 'database file moved away mid-run',
    expects: 'the SQLite file renamed while requests run: 503 problems (lookups from the catalogue may answer 200), /health fast, and good again within 5 s of its return',
    keptBy: 'test/system/faults/sqlite-removed.test.ts',
    only: ['sqlite'],
    run: async (p) => {
      const file = p.t.url.slice('sqlite:'.length).split('?')[0]
      renameSync(file, `${file}.away`)
      await sleep(1200)
      let gone: Answer
      try {
        gone = await call(p.base, 'GET', '/appointments/189168')
      } finally {
        renameSync(`${file}.away`, file)
      }
      const recovered = await recovery(p)
      return outcome({ '503 while away': isProblem(gone, 503), 'good within 5 s': recovered < 5000 }, `${gone.status}; good again after ${Math.round(recovered)} ms`)
    }
  }
]

function rowsAdded (before: string, after: string, table: string): number {
  const count = (fp: string): number => Number(new RegExp(`${table}:(\\d+)`).exec(fp)?.[1])
  return count(after) - count(before)
}

async function recovery (p: Probe): Promise<number> {
  const began = performance.now()
  while (performance.now() - began < 10_000) {
    const a = await call(p.base, 'GET', '/appointments/189168')
    if (a.status === 200) return performance.now() - began
    await sleep(100)
  }
  return Infinity
}

/** An appointment of a day Ponte offers slots on, for a professional other than the slot's. */
async function dayWithOther (p: Probe, sameProfessional: boolean): Promise<{ id: string, slot: { date: string, hour: string, professional: string } }> {
  for (;;) {
    const s = await p.slot()
    const list = await call(p.base, 'GET', `/appointments?start=${s.date}&end=${s.date}&professional=${sameProfessional ? s.professional : ''}`.replace(/&professional=$/, ''))
    const other = list.json.find((a: any) => sameProfessional || a.professional?.id !== s.professional)
    if (other !== undefined) return { id: other.id, slot: s }
  }
}

async function deskHoldsOther (p: Probe, judge: (booked: Answer) => Promise<ReturnType<typeof outcome>>): Promise<ReturnType<typeof outcome>> {
  const { id, slot } = await dayWithOther(p, false)
  const client = await p.client()
  const desk = await p.t.desk()
  try {
    await desk.rows('BEGIN')
    await desk.rows(`SELECT * FROM ${p.t.table('AGENDA')} WHERE ${p.t.col('ID_AGENDA')} = ? FOR UPDATE`, [Number(id)])
    const booked = await call(p.base, 'POST', '/appointments', { body: { date: slot.date, hour: slot.hour, client, professional: slot.professional } })
    return await judge(booked)
  } finally {
    await desk.rows('ROLLBACK').catch(() => {})
    await desk.close()
  }
}

async function deskHoldsSame (p: Probe, judge: (booked: Answer, health: { ms: number, ok: boolean }) => Promise<ReturnType<typeof outcome>>): Promise<ReturnType<typeof outcome>> {
  const { id, slot } = await dayWithOther(p, true)
  const client = await p.client()
  const desk = await p.t.desk()
  try {
    await desk.rows('BEGIN')
    // The desk program books that professional's day: it locks their rows and inserts among them.
    await desk.rows(`SELECT * FROM ${p.t.table('AGENDA')} WHERE ${p.t.col('DATA')} = ? FOR UPDATE`, [slot.date])
    await desk.rows(`UPDATE ${p.t.table('AGENDA')} SET ${p.t.col('SITUACAO')} = ${p.t.col('SITUACAO')} WHERE ${p.t.col('ID_AGENDA')} = ?`, [Number(id)])
    const booking = call(p.base, 'POST', '/appointments', { body: { date: slot.date, hour: slot.hour, client, professional: slot.professional } })
    await sleep(200)
    const health = await healthMs(p.base)
    return await judge(await booking, health)
  } finally {
    await desk.rows('ROLLBACK').catch(() => {})
    await desk.close()
  }
}

async function sqliteWriteLock<T> (p: Probe, act: () => Promise<T>): Promise<T> {
  const file = p.t.url.slice('sqlite:'.length).split('?')[0]
  const db = new Sqlite(file, { timeout: 2000 })
  db.exec('BEGIN EXCLUSIVE')
  try { return await act() } finally { db.exec('ROLLBACK'); db.close() }
}
