// Liveness and readiness, without an API key (load balancers and orchestrators call these).
// /health never touches the database: it answers while the database is down or locked.
import type { FastifyPluginAsync } from 'fastify'
import { InstallationNotReadyError, PonteError } from '../errors.js'
import { PROBLEM_TYPE_BASE, sendProblem } from '../plugins/problems.js'
import type { WebhookStatus } from '../app.js'

const health: FastifyPluginAsync = async (app) => {
  app.get('/health', { schema: { hide: true } as Record<string, unknown> }, async () => ({ status: 'ok' }))
  app.get('/ready', { schema: { hide: true } as Record<string, unknown> }, async (request, reply) => {
    try {
      const ponte = app.ponte
      await ponte.db.ping()
      // Which mapping is served (its file's SHA-256: changes with a reload) and how old the
      // lookup catalogue is (null before its first load).
      const loadedAt = ponte.catalog.loadedAt
      return {
        status: 'ready',
        mapping: { installation: ponte.compiled.model.installation, hash: ponte.mappingHash ?? null },
        catalogue: { ageSeconds: loadedAt === undefined ? null : Math.round((Date.now() - loadedAt) / 1000), refreshFailures: ponte.catalog.failures },
        // Change detection, where mapped: when it last polled and what failed (a kind, never text).
        ...(app.changePoller.mapped ? { changes: { lastPollAt: app.changePoller.state.lastPollAt, lastError: app.changePoller.state.lastError, polls: app.changePoller.state.polls, ...(app.changePoller.polling === undefined ? {} : { polling: app.changePoller.polling() }) } } : {}),
        ...(app.webhooks ? { webhooks: await webhookState(app.webhooks) } : {})
      }
    } catch (err) {
      // The reason is the driver's own message for the caller (never a path or driver text).
      const known = err instanceof PonteError ? err : undefined
      request.log.warn({ type: known?.type ?? 'database-unavailable' }, 'not ready')
      // A mapping that does not fit the database: where to fix it, in the mapping's words
      // (its line, the place, what is wrong) — never SQL, never a value from a row.
      const findings = err instanceof InstallationNotReadyError ? readyFindings(err.findings) : {}
      return sendProblem(reply, request, {
        type: PROBLEM_TYPE_BASE + (known?.type ?? 'database-unavailable'),
        title: 'Not ready',
        status: 503,
        detail: known?.message ?? 'The clinic database cannot be reached right now.',
        ...findings
      }, { 'retry-after': known?.headers['retry-after'] ?? '5' })
    }
  })
}

// Each subscriber by name only (never its URL, which may hold credentials, or its secret).
// Delivery state that cannot be read (the events file locked) does not make Ponte unready, and
// is waited for only briefly: a probe with a short timeout must not fail on a busy file.
const WEBHOOK_STATE_MS = 300

async function webhookState (webhooks: WebhookStatus): Promise<object> {
  const delivering = webhooks.holdsLease?.() ?? null
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'unknown'>((resolve) => { timer = setTimeout(() => { resolve('unknown') }, WEBHOOK_STATE_MS) })
  try {
    const subscribers = await Promise.race([webhooks.status(), late])
    return subscribers === 'unknown' ? { delivering, subscribers: null, state: 'unknown' } : { delivering, subscribers }
  } catch {
    return { delivering, subscribers: null, state: 'unknown', error: 'event-store-unavailable' }
  } finally {
    clearTimeout(timer)
  }
}

// A finding quotes the mapping (a table or column name), which can be any length: /ready says
// a bounded number of them, each cut short, and how many more `ponte check` will list.
const MAX_FINDINGS = 20
const MAX_TEXT = 200

function readyFindings (all: InstallationNotReadyError['findings']): { findings: object[], moreFindings?: number } {
  const findings = all.slice(0, MAX_FINDINGS).map((f) => ({ line: f.line ?? null, column: f.column ?? null, subject: cut(f.subject), message: cut(f.message) }))
  return all.length > MAX_FINDINGS ? { findings, moreFindings: all.length - MAX_FINDINGS } : { findings }
}

function cut (text: string): string {
  if (text.length <= MAX_TEXT) return text
  // Never half of a surrogate pair: the answer stays valid UTF-8.
  const end = /[\uD800-\uDBFF]/.test(text[MAX_TEXT - 2]) ? MAX_TEXT - 2 : MAX_TEXT - 1
  return `${text.slice(0, end)}…`
}

export default health
