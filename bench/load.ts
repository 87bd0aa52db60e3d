// Load generator, run in its own process (forked by run.ts) so it gets a core of its own.
// `connections` keep-alive sockets to 127.0.0.1, each sending the next GET as soon as the
// previous response is complete, until `durationMs` has passed; then it waits for the
// requests in flight. Raw sockets rather than http.request: the client must cost less
// than the servers it measures. A response ends where its Content-Length says, or, when it
// is streamed (Transfer-Encoding: chunked, Ponte's multi-day lists), at its last chunk.
import { connect } from 'node:net'
import { performance } from 'node:perf_hooks'

export interface LoadJob {
  port: number
  path: string
  headers: Record<string, string>
  connections: number
  durationMs: number
  /** POST these JSON bodies to `path`, each once (shared by the connections), instead of GETs for durationMs. */
  bodies?: string[]
}

export interface LoadResult {
  requests: number
  /** Non-2xx responses and socket errors. */
  failures: number
  rps: number
  p50: number
  p99: number
  /** Every request's latency, ms, in the order they completed. */
  latencies: number[]
  /** Statuses seen, with their counts. */
  statuses: Record<string, number>
}

const HEAD_END = Buffer.from('\r\n\r\n')

/** The q-quantile of ascending values (nearest rank). */
export const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!

/**
 * Finds the end of a chunked body fed piece by piece: each chunk is a hex size line, that
 * many bytes and CRLF; the body ends with a chunk of size 0 and an empty trailer line.
 */
export class ChunkedEnd {
  private pending = Buffer.alloc(0) // an unfinished size line, or the final CRLF being waited for
  private skip = 0 // bytes of chunk data (and its CRLF) still to pass over
  private last = false

  /** true once the whole body has been seen. */
  feed (data: Buffer): boolean {
    let at = 0
    while (at < data.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, data.length - at)
        this.skip -= n; at += n
        continue
      }
      const line = data.indexOf(0x0a, at)
      if (line < 0) { this.pending = Buffer.concat([this.pending, data.subarray(at)]); return false }
      const text = Buffer.concat([this.pending, data.subarray(at, line)]).toString('latin1').trim()
      this.pending = Buffer.alloc(0)
      at = line + 1
      if (this.last) { if (text === '') return true; continue } // trailer fields, then the empty line
      const size = parseInt(text.split(';')[0]!, 16)
      if (!Number.isFinite(size)) throw new Error(`bad chunk size line "${text.slice(0, 20)}"`)
      if (size === 0) this.last = true
      else this.skip = size + 2
    }
    return false
  }
}

export async function load (job: LoadJob): Promise<LoadResult> {
  const head = [`GET ${job.path} HTTP/1.1`, `Host: 127.0.0.1:${job.port}`, ...Object.entries(job.headers).map(([k, v]) => `${k}: ${v}`)]
  const request = Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1')
  const posts = job.bodies?.map((body) => {
    const bytes = Buffer.from(body, 'utf8')
    const h = [`POST ${job.path} HTTP/1.1`, `Host: 127.0.0.1:${job.port}`, 'content-type: application/json', `content-length: ${bytes.length}`,
      ...Object.entries(job.headers).map(([k, v]) => `${k}: ${v}`)]
    return Buffer.concat([Buffer.from(`${h.join('\r\n')}\r\n\r\n`, 'latin1'), bytes])
  })
  let nextPost = 0
  const statuses: Record<string, number> = {}
  const latencies: number[] = []
  let failures = 0
  const started = performance.now()
  const stopAt = started + job.durationMs

  const connection = async (): Promise<void> => await new Promise((resolve) => {
    const socket = connect(job.port, '127.0.0.1')
    socket.setNoDelay(true)
    let chunks: Buffer[] = []
    let received = 0
    let expected = -1 // total bytes of the current response, once its head is read
    let chunked: ChunkedEnd | undefined
    let ok = true
    let sentAt = 0
    let inFlight = false // a request sent and its answer not yet whole
    const send = (): void => {
      const next = posts ? posts[nextPost++] : performance.now() < stopAt ? request : undefined
      if (next === undefined) { socket.end(); resolve(); return }
      chunks = []; received = 0; expected = -1; chunked = undefined
      sentAt = performance.now()
      inFlight = true
      socket.write(next)
    }
    const done = (): void => {
      inFlight = false
      latencies.push(performance.now() - sentAt)
      if (!ok) failures++
      send()
    }
    socket.on('connect', send)
    socket.on('data', (chunk: Buffer) => {
      if (chunked !== undefined) {
        let end: boolean
        try { end = chunked.feed(chunk) } catch { socket.destroy(); return }
        if (end) done()
        return
      }
      chunks.push(chunk)
      received += chunk.length
      if (expected < 0) {
        const buf = chunks.length === 1 ? chunk : Buffer.concat(chunks)
        const end = buf.indexOf(HEAD_END)
        if (end < 0) return
        const text = buf.subarray(0, end).toString('latin1')
        ok = text.startsWith('HTTP/1.1 2')
        const status = text.slice(9, 12)
        statuses[status] = (statuses[status] ?? 0) + 1
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(text)
        if (length) {
          expected = end + HEAD_END.length + Number(length[1])
        } else if (/\r\ntransfer-encoding:\s*chunked/i.test(text)) {
          chunked = new ChunkedEnd()
          let last: boolean
          try { last = chunked.feed(buf.subarray(end + HEAD_END.length)) } catch { socket.destroy(); return }
          if (last) done()
          return
        } else { socket.destroy(); return }
      }
      if (received < expected) return
      done()
    })
    // A streamed answer that fails after its first byte is cut (the socket closes mid-body).
    // An error (refused, reset) is one failure, however the close that follows it goes.
    let failed = false
    const fail = (): void => {
      if (!failed) { failed = true; failures++ }
      resolve()
    }
    socket.on('error', fail)
    socket.on('close', () => { if (inFlight) fail(); else resolve() })
  })

  await Promise.all(Array.from({ length: job.connections }, connection))
  const seconds = (performance.now() - started) / 1000
  const sorted = [...latencies].sort((a, b) => a - b)
  return { requests: latencies.length, failures, rps: latencies.length / seconds, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), latencies, statuses }
}

// Forked by run.ts: one job per message, one result back.
if (process.send) {
  process.on('message', (job: LoadJob) => {
    void load(job).then((result) => process.send?.(result))
  })
}
