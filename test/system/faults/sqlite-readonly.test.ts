// Issue 7, defect 4: the database's folder made read-only while Ponte runs. Writes then fail
// inside SQLite (it cannot create its journal beside the file); they must be 503 problems,
// not 500, and /ready must say not ready. Ponte runs as a real server in a child process, as
// this user: the folder's mode then binds it. Root writes into a 0555 folder all the same
// (the capability CAP_DAC_OVERRIDE), so as root the server is started without that capability
// (setpriv, util-linux) — still root, still able to read the checkout wherever it sits (a
// 0700 home folder, which another user could not enter). Where that cannot be done the test
// says why it skips.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import tap from 'tap'
import { sampleFixture } from '../../../src/installation.js'
import { createSqliteFromFixture } from '../../../src/sql/sqlite/load.js'
import { SAMPLES, TEST_KEY } from '../../helpers/app.js'
import { childEnv } from '../../helpers/child-env.js'
import { freePort } from '../../helpers/server-process.js'

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0
const WITHOUT_OVERRIDE = ['setpriv', '--bounding-set=-dac_override', '--']

/** Why a read-only folder would not bind the server here; undefined when it would. */
function cannotTest (): string | undefined {
  if (!asRoot) return undefined
  const dir = mkdtempSync(join(tmpdir(), 'ponte-readonly-probe-'))
  try {
    chmodSync(dir, 0o555)
    const probe = spawnSync(WITHOUT_OVERRIDE[0], [...WITHOUT_OVERRIDE.slice(1), process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(join(dir, 'probe'))}, '')`])
    if (probe.error) return `as root, needs setpriv (util-linux) to start Ponte without CAP_DAC_OVERRIDE (${(probe.error as NodeJS.ErrnoException).code ?? 'error'})`
    if (probe.status === 0) return 'as root, setpriv could not take CAP_DAC_OVERRIDE away (a container without CAP_SETPCAP?)'
    return /EACCES/.test(String(probe.stderr)) ? undefined : `as root, setpriv failed: ${String(probe.stderr).split('\n')[0]}`
  } finally {
    chmodSync(dir, 0o755)
    rmSync(dir, { recursive: true, force: true })
  }
}

tap.test('folder made read-only under a running Ponte: writes 503, /ready not ready, back when writable', { skip: cannotTest() ?? false }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'ponte-readonly-'))
  const file = join(dir, 'clinic.db')
  createSqliteFromFixture(sampleFixture(SAMPLES[0]), file)
  chmodSync(dir, 0o755)
  const port = await freePort()
  const command = [...(asRoot ? WITHOUT_OVERRIDE : []), process.execPath, '--import', 'tsx', 'src/server.ts']
  const server: ChildProcess = spawn(command[0], command.slice(1), {
    cwd: process.cwd(),
    stdio: ['ignore', 'ignore', 'inherit'],
    env: childEnv({
      PORT: String(port),
      HOST: '127.0.0.1',
      API_KEYS: TEST_KEY,
      MAPPING: SAMPLES[0],
      DATABASE_URL: `sqlite:${file}`,
      IDEMPOTENCY_STORE: ':memory:',
      RATE_LIMIT_PER_MINUTE: '0',
      LOG_LEVEL: 'silent'
    })
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
