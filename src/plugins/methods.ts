// What the router could not match: 405 with `Allow` when the path exists under other methods,
// else 404. The router only knows "no route for this method and path", so the patterns and
// their methods are collected here as routes are added (register this before any route).
import fp from 'fastify-plugin'
import type { FastifyInstance } from 'fastify'
import { MethodNotAllowedError, NotFoundError } from '../errors.js'

/** A route pattern as segments: a literal, `:param` (one segment) or `*` (the rest). */
type Pattern = string[]

function segmentsOf (path: string): string[] {
  return path.split('/').slice(1)
}

function matches (pattern: Pattern, segments: string[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i]
    if (p === '*') return true
    if (i >= segments.length) return false
    if (p.startsWith(':')) {
      if (segments[i] === '') return false
    } else if (p !== segments[i]) {
      return false
    }
  }
  return pattern.length === segments.length
}

function decoded (path: string): string {
  try { return decodeURIComponent(path) } catch { return path }
}

export class RouteMethods {
  private readonly byPattern = new Map<string, { pattern: Pattern, methods: Set<string> }>()

  add (url: string, methods: string | string[]): void {
    const entry = this.byPattern.get(url) ?? { pattern: segmentsOf(url), methods: new Set<string>() }
    for (const m of [methods].flat()) entry.methods.add(m.toUpperCase())
    this.byPattern.set(url, entry)
  }

  /** Every method some route answers on this path (a request with any of them is routed). */
  allowed (path: string): string[] {
    const segments = segmentsOf(decoded(path))
    const methods = new Set<string>()
    for (const { pattern, methods: ms } of this.byPattern.values()) {
      if (matches(pattern, segments)) for (const m of ms) methods.add(m)
    }
    return [...methods].sort()
  }
}

export default fp(async function methods (app: FastifyInstance) {
  const routes = new RouteMethods()
  app.addHook('onRoute', (route) => { routes.add(route.url, route.method) })
  app.setNotFoundHandler(async (request) => {
    const path = request.url.split('?')[0]
    const allowed = routes.allowed(path)
    if (allowed.length > 0 && !allowed.includes(request.method)) throw new MethodNotAllowedError(request.method, path, allowed)
    throw new NotFoundError(`No route ${request.method} ${path}.`)
  })
}, { name: 'ponte-methods' })
