// Shutdown as a supervisor does it: the real start commands, a real SIGTERM, real sockets.
// A SIGTERM to `npm start` must stop the server (no orphan left on the port); requests already
// being handled finish while a request arriving meanwhile gets a 503 problem; a shutdown that
// cannot finish exits anyway at SHUTDOWN_TIMEOUT_MS.
import t from 'tap'
import net from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { TEST_KEY } from '../../helpers/app.js'
import { freePort } from '../../helpers/server-process.js'
import { alive, descendants, exited, start, waitForPort } from '../../helpers/processes.js'

const STARTUP_MS = 60_000

/** A raw HTTP/1.1 connection: the test decides when each byte is sent. */
async function connection (port: number): Promise<{ socket: net.Socket, reply: Promise<string> }> {
  const socket = net.connect(port, '127.0.0.1')
  await new Promise((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject) })
  let text = ''
  socket.on('data', (d: Buffer) => { text += d.toString() })
  const reply = new Promise<string>((resolve) => { socket.once('close', () => resolve(text)); socket.once('error', () => resolve(text)) })
  return { socket, reply }
}

function parse (raw: string): { status: number, headers: Record<string, string>, body: any } {
  const [head, ...rest] = raw.split('\r\n\r\n')
  const [statusLine, ...lines] = head.split('\r\n')
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
  let body: any
  try { body = JSON.parse(rest.join('\r\n\r\n')) } catch { body = undefined }
  return { status: Number(statusLine.split(' ')[1]), headers, body }
}

t.test('SIGTERM to `npm start` stops the server: port closed, no process left', async (t) => {
  const port = await freePort()
  const npm = start('npm', ['start'], port)
  let tree: number[] = []
  // Whatever is left (an orphan, if this test fails) is killed: it must not hold the port.
  t.teardown(() => { for (const p of [npm.pid as number, ...tree]) if (alive(p)) process.kill(p, 'SIGKILL') })
  t.ok(await waitForPort(port, true, STARTUP_MS), 'the server listens', { output: npm.output() })
  tree = descendants(npm.pid as number)
  t.ok(tree.length > 0, `npm runs the server below it (${tree.length} process(es))`)

  npm.kill('SIGTERM')
  t.not(await exited(npm, 15_000), 'running', 'npm exits')
  t.ok(await waitForPort(port, false, 15_000), 'nothing listens on the port any more')
  await sleep(200)
  t.same(tree.filter(alive), [], 'no process started by npm is left running')
  t.match(npm.output(), /shutting down/, 'the server itself shut down (it logged it)')
})

t.test('during shutdown: an in-flight request finishes, a new one gets a 503 problem with Connection: close', async (t) => {
  const port = await freePort()
  const server = start(process.execPath, ['--import', 'tsx', 'src/server.ts'], port)
  t.teardown(() => { if (alive(server.pid as number)) server.kill('SIGKILL') })
  t.ok(await waitForPort(port, true, STARTUP_MS), 'the server listens', { output: server.output() })

  // In flight: a booking whose body is still arriving when the signal comes.
  const body = JSON.stringify({ name: 'Shutdown Test Client', phone: '+5511955501234' })
  const slow = await connection(port)
  slow.socket.write(`POST /clients HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`)
  // Arriving: a request whose first line is sent before the signal and its end after.
  const late = await connection(port)
  late.socket.write('GET /professionals HTTP/1.1\r\nHost: x\r\n')
  await sleep(300) // both are read by the server before the signal

  server.kill('SIGTERM')
  t.ok(await waitForPort(port, false, 10_000), 'no new connections once shutdown starts')

  late.socket.write(`Authorization: Bearer ${TEST_KEY}\r\n\r\n`)
  const refused = parse(await late.reply)
  t.equal(refused.status, 503, 'the late request: 503')
  t.match(refused.headers['content-type'], /^application\/problem\+json/, 'a problem document')
  t.equal(refused.body?.type, 'https://ponte.dev/problems/shutting-down', 'of our type')
  t.equal(refused.headers.connection, 'close', 'Connection: close')
  t.ok(refused.headers['retry-after'], 'Retry-After')
  t.equal(await exited(server, 0), 'running', 'the server is still up for the request in flight')

  slow.socket.write(body.slice(10))
  const finished = parse(await slow.reply)
  t.equal(finished.status, 200, 'the in-flight booking completes', { body: finished.body })
  t.equal(finished.body?.name, 'Shutdown Test Client', 'with the client as written')
  t.equal(finished.headers.connection, 'close', 'and its connection closes after it')

  t.equal(await exited(server, 15_000), 0, 'then the server exits cleanly')
})

t.test('a shutdown that cannot finish exits at SHUTDOWN_TIMEOUT_MS', async (t) => {
  const port = await freePort()
  const server = start(process.execPath, ['--import', 'tsx', 'src/server.ts'], port, { SHUTDOWN_TIMEOUT_MS: '1000' })
  t.teardown(() => { if (alive(server.pid as number)) server.kill('SIGKILL') })
  t.ok(await waitForPort(port, true, STARTUP_MS), 'the server listens', { output: server.output() })
  // A body that never finishes arriving: without a deadline the server would wait for it (Node's
  // requestTimeout is 5 minutes).
  const stuck = await connection(port)
  t.teardown(() => { stuck.socket.destroy() })
  stuck.socket.write(`POST /clients HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`)
  await sleep(300)

  const signalled = Date.now()
  server.kill('SIGTERM')
  const code = await exited(server, 20_000)
  const took = Date.now() - signalled
  t.equal(code, 1, 'the process exits, with code 1 (shutdown not clean)')
  t.ok(took >= 900 && took < 10_000, `after the 1 s deadline, not before (${took} ms)`)
})
