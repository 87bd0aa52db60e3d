// What the hostile probe sends and reads: plain HTTP calls through fetch, and raw bytes over a
// socket (pipelining, slow and cut requests, malformed framing), with the answers that came
// back parsed by their Content-Length, how the connection ended and when.
import { connect, type Socket } from 'node:net'
import { KEY, sleep } from './target.js'

export interface Answer {
  status: number
  headers: Record<string, string>
  text: string
  json?: any
  ms: number
}

export async function call (base: string, method: string, path: string, opts: { body?: unknown, raw?: string | Buffer, headers?: Record<string, string>, key?: string | null } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...opts.headers }
  if (opts.key !== null) headers.authorization = `Bearer ${opts.key ?? KEY}`
  let body: string | Buffer | undefined
  if (opts.raw !== undefined) body = opts.raw
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body)
    headers['content-type'] ??= 'application/json'
  }
  const began = performance.now()
  const r = await fetch(base + path, { method, headers, body, signal: AbortSignal.timeout(30_000) })
  const text = await r.text()
  const ms = performance.now() - began
  let json: any
  try { json = JSON.parse(text) } catch {}
  return { status: r.status, headers: Object.fromEntries(r.headers), text, json, ms }
}

export interface Exchange {
  answers: Answer[]
  /** How the connection ended: the server closed it, reset it, or it was still open at the deadline. */
  end: 'closed' | 'reset' | 'open'
  /** Milliseconds from connecting to the end. */
  ms: number
  writeError?: string
}

/**
 * Sends `steps` (bytes, or a pause in ms) on one connection and reads until the server ends it
 * or `waitMs` passes after the last step.
 */
export async function raw (port: number, steps: Array<string | Buffer | number>, waitMs = 3000): Promise<Exchange> {
  const socket = connect(port, '127.0.0.1')
  const chunks: Buffer[] = []
  const began = performance.now()
  let end: Exchange['end'] | undefined
  let writeError: string | undefined
  const ended = new Promise<void>(resolve => {
    socket.on('data', d => chunks.push(d))
    socket.on('error', e => { if ((e as NodeJS.ErrnoException).code === 'ECONNRESET') end ??= 'reset'; resolve() })
    socket.on('close', () => { end ??= 'closed'; resolve() })
  })
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject) })
  for (const step of steps) {
    if (typeof step === 'number') { await Promise.race([sleep(step), ended]); continue }
    if (socket.destroyed || end !== undefined) break
    await new Promise<void>(resolve => socket.write(step, e => { if (e != null) writeError = e.message; resolve() }))
  }
  const timer = sleep(waitMs)
  await Promise.race([ended, timer])
  if (end === undefined) { end = 'open'; socket.destroy() }
  return { answers: parse(Buffer.concat(chunks), began), end, ms: performance.now() - began, writeError }
}

/** Opens a connection and leaves it to the caller (slowloris, idle keep-alive). */
export async function open (port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1')
  socket.on('error', () => {})
  // Flowing, so that the server's FIN is read and 'close' follows.
  socket.resume()
  await new Promise<void>(resolve => socket.once('connect', resolve))
  return socket
}

/** HTTP/1.1 answers in order, framed by Content-Length (chunked bodies joined). */
export function parse (bytes: Buffer, began: number): Answer[] {
  const out: Answer[] = []
  let at = 0
  while (at < bytes.length) {
    const head = bytes.indexOf('\r\n\r\n', at)
    if (head < 0) break
    const lines = bytes.subarray(at, head).toString('latin1').split('\r\n')
    const status = Number(lines[0].split(' ')[1])
    const headers: Record<string, string> = {}
    for (const line of lines.slice(1)) {
      const i = line.indexOf(':')
      headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim()
    }
    let body: Buffer
    at = head + 4
    if (headers['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = []
      for (;;) {
        const eol = bytes.indexOf('\r\n', at)
        if (eol < 0) { at = bytes.length; break }
        const size = parseInt(bytes.subarray(at, eol).toString(), 16)
        at = eol + 2
        if (size === 0 || Number.isNaN(size)) { at += 2; break }
        parts.push(bytes.subarray(at, at + size))
        at += size + 2
      }
      body = Buffer.concat(parts)
    } else {
      const length = Number(headers['content-length'] ?? 0)
      body = bytes.subarray(at, at + length)
      at += length
    }
    const text = body.toString('utf8')
    let json: any
    try { json = JSON.parse(text) } catch {}
    out.push({ status, headers, text, json, ms: performance.now() - began })
  }
  return out
}

/** A request's bytes, with the probe's key and a Content-Length for the body. */
export function request (method: string, path: string, body?: string | Buffer, headers: Record<string, string> = {}): Buffer {
  const all: Record<string, string> = { host: 'probe', authorization: `Bearer ${KEY}`, ...headers }
  if (body !== undefined) {
    all['content-type'] ??= 'application/json'
    all['content-length'] ??= String(Buffer.byteLength(body))
  }
  const head = `${method} ${path} HTTP/1.1\r\n` + Object.entries(all).map(([k, v]) => `${k}: ${v}\r\n`).join('') + '\r\n'
  return Buffer.concat([Buffer.from(head, 'latin1'), body === undefined ? Buffer.alloc(0) : Buffer.from(body)])
}

/** A problem answer as docs/interface.md promises it: problem+json, our type, the status echoed. */
export function isProblem (a: Answer, status: number): boolean {
  return a.status === status &&
    (a.headers['content-type'] ?? '').startsWith('application/problem+json') &&
    typeof a.json?.type === 'string' && a.json.type.startsWith('https://ponte.dev/problems/') &&
    a.json.status === status
}

/** Whether a refusal names `path` in `errors[]`. */
export function names (a: Answer, path: string): boolean {
  return Array.isArray(a.json?.errors) && a.json.errors.some((e: { path?: string }) => e.path === path)
}

/** Driver, SQL or stack text in an answer: never for a caller. */
export function leaks (a: Answer): boolean {
  return /\b(SELECT|INSERT|UPDATE)\b.*\b(FROM|INTO|SET)\b|SQLITE_|ER_[A-Z_]+|sqlMessage|syntax error|at .*\.ts:\d+|node_modules/.test(a.text)
}
