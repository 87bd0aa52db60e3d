// At-least-once across a crash: a delivery process SIGKILLed while the receiver holds a request
// open, then started again, loses no event and repeats only with the same webhook-id, each
// appointment's events still answered in order.
import t from 'tap'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { once } from 'node:events'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SqliteEventLog } from '../../../src/events/log.js'
import type { NewEvent } from '../../../src/events/event.js'
import { receiverFor, testSecret } from '../../helpers/webhook-receiver.js'
import { childEnv } from '../../helpers/child-env.js'

const dir = mkdtempSync(join(tmpdir(), 'ponte-delivery-kill-'))
t.teardown(() => { rmSync(dir, { recursive: true, force: true }) })
const child = fileURLToPath(new URL('../../helpers/delivery-child.ts', import.meta.url))

const change = (appointmentId: string): NewEvent => ({ type: 'appointment.updated', appointmentId, data: { appointment: { id: appointmentId } } })

async function startDelivery (env: Record<string, string>): Promise<ChildProcess> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child], { env: childEnv(env), stdio: ['ignore', 'pipe', 'inherit'] })
  await once(proc.stdout!, 'data')
  return proc
}

t.test('SIGKILL mid-delivery, then a restart: nothing lost, repeats only with the same webhook-id', async (t) => {
  const secret = testSecret()
  const receiver = await receiverFor(t, secret)
  const file = join(dir, 'events.sqlite')
  const log = await SqliteEventLog.open(file)
  t.teardown(() => { log.close() })
  // Appointment 70's third event is held open by the receiver: the process dies during it.
  let holding = true
  receiver.answer = (r) => holding && r.body.seq === 5 ? 'hold' : 200
  const env = { EVENTS_STORE: file, HOOK_URL: receiver.url, HOOK_SECRET: secret }

  const first = await startDelivery(env)
  t.teardown(() => { if (first.exitCode === null) first.kill('SIGKILL') })
  const appended = await log.append(['70', '71', '70', '71', '70', '71', '70', '72'].map(change))
  await receiver.until(() => receiver.received.some((r) => r.body.seq === 5) && receiver.delivered.length >= 5)
  first.kill('SIGKILL')
  await once(first, 'exit')
  const sentBeforeKill = new Set(receiver.received.map((r) => r.webhookId))
  t.notOk(receiver.delivered.some((r) => r.body.seq === 7), 'appointment 70\'s next event was not sent while its third was in flight')

  holding = false
  const second = await startDelivery(env)
  t.teardown(async () => { if (second.exitCode === null) { second.kill('SIGKILL'); await once(second, 'exit') } })
  await receiver.until(() => new Set(receiver.delivered.map((r) => r.webhookId)).size === appended.length)

  t.same(receiver.unverified, [], 'every request verified')
  t.same(new Set(receiver.delivered.map((r) => r.webhookId)), new Set(appended.map((e) => e.id)), 'every event delivered')
  t.ok(receiver.received.every((r) => r.webhookId === r.body.id), 'every request\'s webhook-id is its event\'s id')
  const repeated = receiver.received.filter((r, i) => receiver.received.findIndex((o) => o.webhookId === r.webhookId) !== i)
  t.ok(repeated.some((r) => r.body.seq === 5), 'the event in flight when killed was sent again')
  // An event answered just before the kill, its delivery not yet recorded, may be sent again too.
  t.ok(repeated.every((r) => sentBeforeKill.has(r.webhookId)), `repeats only of events the killed process had sent (seqs ${repeated.map((r) => r.body.seq).join(', ')})`)
  t.ok(repeated.length < appended.length, 'not everything again')
  const seventy = receiver.delivered.filter((r) => r.appointmentId === '70').map((r) => r.body.seq)
  // A repeat (an attempt that timed out after the receiver answered, or one the kill cut) comes
  // before the appointment's next event, never after it.
  t.ok(seventy.every((s, i) => i === 0 || s >= seventy[i - 1]), `appointment 70 answered in order: ${seventy.join(', ')}`)
  t.same([...new Set(seventy)], [1, 3, 5, 7], 'each of its events')
})
