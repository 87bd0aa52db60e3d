// Logs never hold patient data in clear: checked on what pino really writes.
import t from 'tap'
import { Writable } from 'node:stream'
import pino from 'pino'
import { loggerOptions, redactUrl, safeError } from '../src/logging.js'
import { sampleApp } from './helpers/app.js'

t.test('personal query parameters are redacted from URLs', async (t) => {
  t.equal(redactUrl('/clients/search?term=%2B5511987654321&limit=5'), '/clients/search?term=[redacted]&limit=5')
  t.equal(redactUrl('/appointments?start=2026-01-01&client=42'), '/appointments?start=2026-01-01&client=[redacted]')
  t.equal(redactUrl('/professionals'), '/professionals')
})

t.test('patient fields and keys are censored in log lines', async (t) => {
  const lines: string[] = []
  const sink = new Writable({ write (chunk, _enc, done) { lines.push(String(chunk)); done() } })
  const log = pino(loggerOptions('info'), sink)
  log.info({ client: { name: 'Maria Silva', phone: '+5511987654321', cpf: '52998224725', email: 'm@x.com' } }, 'created')
  log.info({ req: { headers: { authorization: 'Bearer secret-key' } } }, 'request')
  const text = lines.join('')
  for (const secret of ['Maria', '+5511987654321', '52998224725', 'm@x.com', 'secret-key']) t.notMatch(text, secret, `${secret} not logged`)
  t.match(text, '[redacted]')
})

t.test('a served search leaves no phone in the request log', async (t) => {
  const lines: string[] = []
  const a = await sampleApp('mappings/clinica-sorriso.yaml', { LOG_LEVEL: 'info' })
  t.teardown(() => a.close())
  // The test app is built without logs; rebuild its logger on a sink to see what a server writes.
  const { buildApp } = await import('../src/app.js')
  const sink = new Writable({ write (chunk, _enc, done) { lines.push(String(chunk)); done() } })
  const app = await buildApp(a.ponte, { logLevel: 'info', logStream: sink })
  t.teardown(() => app.close())
  await app.inject({ url: '/clients/search?term=%2B5511987654321', headers: { authorization: 'Bearer test-key-0123456789abcdef' } })
  const text = lines.join('')
  t.match(text, '/clients/search?term=[redacted]')
  t.notMatch(text, '5511987654321')
  t.notMatch(text, 'test-key-0123456789abcdef')
})

t.test('database errors are logged without the values they quote', async (t) => {
  const err = Object.assign(new Error("Conversion failed when converting the varchar value 'Maria da Silva' to data type int."), { number: 245 })
  const logged = safeError(err)
  t.notMatch(JSON.stringify(logged), 'Maria')
  t.match(logged, { type: 'Error', number: 245, message: /converting the varchar value '…' to data type int/ })
})
