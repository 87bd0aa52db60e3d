// How conformance checks talk to an installation: any function that answers a request.
// `ponte conformance` uses real HTTP (fetch); the test suite passes fastify's inject.
export interface Reply {
  status: number
  body: any
  contentType: string
  /** Fields the answer says were accepted and not stored (`Ponte-Ignored-Fields`). */
  ignored?: string[]
  /** Of those, the ones the mapping declares ignored (`Ponte-Ignored-Declared`: `write.ignore`). */
  declared?: string[]
}

/** The `Ponte-Ignored-Fields` header's field names. */
export function ignoredFields (header: string | null | undefined): string[] {
  return (header ?? '').split(',').map((f) => f.trim()).filter((f) => f !== '')
}

export type Send = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, headers?: Record<string, string>) => Promise<Reply>

/** Real HTTP with the API key; `headers` replaces the key when it carries its own. */
export function httpSender (base: string, key: string, timeoutMs = 30_000): Send {
  return async (method, path, body, headers) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...(headers ?? { authorization: `Bearer ${key}` }), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(timeoutMs)
    })
    const text = await res.text()
    let parsed: unknown
    try { parsed = text === '' ? undefined : JSON.parse(text) } catch { parsed = text }
    return { status: res.status, body: parsed, contentType: res.headers.get('content-type') ?? '', ignored: ignoredFields(res.headers.get('ponte-ignored-fields')), declared: ignoredFields(res.headers.get('ponte-ignored-declared')) }
  }
}
