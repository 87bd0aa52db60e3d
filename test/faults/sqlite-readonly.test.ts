// Issue 7, defect 4: the database's folder made read-only while Ponte runs. Writes then fail
// inside SQLite (it cannot create its journal beside the file); they must be 503 problems,
// not 500, and /ready must say not ready. Tests run as root, for whom a 0555 folder is still
// writable, so Ponte runs here as a real server in a child process under the unprivileged
// user `nobody`, over a copy of the sample in a folder that user owns.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import tap from 'tap'
import { sampleFixture } from '../../src/installation.js'
import { createSqliteFromFixture } from '../../src/sql/sqlite/load.js'
import { SAMPLES, TEST_KEY } from '../helpers/app.js'
import { freePort } from '../helpers/server-process.js'

const NOBODY = 65534
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0


tap.test('folder made read-only under a running Ponte: writes 503, /ready not ready, back when writable', { skip: asRoot ? false : 'needs root to start Ponte as another user' }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-readonly-'))
  const file = join(dir, 'clinic.db')
  createSqliteFromFixture(sampleFixture(SAMPLES[0]), file)
  chownSync(dir, NOBODY, NOBODY)
  chownSync(file, NOBODY, NOBODY)
  chmodSync(dir, 0o755)
  const port = await freePort()
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: process.cwd(),
    uid: NOBODY,
    gid: NOBODY,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      API_KEYS: TEST_KEY,
      MAPPING: SAMPLES[0],
      DATABASE_URL: `sqlite:${file}`,
      IDEMPOTENCY_STORE: ':memory:',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'silent',
      // The server is the subject, not a test: tap must not merge its tsx-compiled coverage.
      _TAPJS_PROCESSINFO_COV_EXCLUDE_: '/./'
    }
  })
  t.teardown(async () => {
    if (server.exitCode === null) {
      server.kill('SIGKILL')
      await once(server, 'exit')
    }
    chmodSync(dir, 0o755)
    rmSync(dir, { recursive: true, force: true })
  })

  const base = `http://127.0.0.1:${port}`
  const http = async (method: string, path: string, body?: object) => {
    const res = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${TEST_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined
    })
    return { status: res.status, body: await res.json() as any, headers: res.headers }
  }
  // Started when /health answers (bounded: 30 s at most).
  for (let i = 0; i < 300; i++) {
    if (await fetch(`${base}/health`).then((r) => r.ok, () => false)) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  t.equal((await http('GET', '/ready')).status, 200, 'ready at first')
  t.equal((await http('POST', '/clients', { name: 'Ana Gravada', phone: '+5511987650011' })).status, 200, 'a write succeeds at first')

  chmodSync(dir, 0o555)
  const refused = await http('POST', '/clients', { name: 'Ana Negada', phone: '+5511987650012' })
  t.equal(refused.status, 503, 'a write into a read-only folder: 503')
  t.equal(refused.body.type, 'https://ponte.dev/problems/database-unavailable', 'database-unavailable')
  t.ok(Number(refused.headers.get('retry-after')) > 0, 'with Retry-After')
  t.notMatch(JSON.stringify(refused.body), /SQLITE|readonly|\/tmp/, 'no driver text or path')
  const ready = await http('GET', '/ready')
  t.equal(ready.status, 503, '/ready: 503')
  t.match(ready.body.detail, /cannot be written/, '/ready: with the reason')
  t.equal((await http('GET', '/appointments?start=2027-03-01&end=2027-03-05')).status, 200, 'reads go on')
  t.equal(server.exitCode, null, 'the process is still up')

  chmodSync(dir, 0o755)
  t.equal((await http('GET', '/ready')).status, 200, 'ready again once writable')
  t.equal((await http('POST', '/clients', { name: 'Ana Liberada', phone: '+5511987650013' })).status, 200, 'writes again')
})
