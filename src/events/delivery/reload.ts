// WEBHOOKS read again on SIGHUP (server.ts), beside the mapping: the subscribers are replaced
// without a restart, owed deliveries of those unchanged kept. A file that no longer checks
// keeps the old list serving and says why in one line, as a broken mapping does.
import type { FastifyBaseLogger } from 'fastify'
import { safeError } from '../../logging.js'
import type { WebhookDelivery } from './delivery.js'
import { loadSubscribers } from './subscribers.js'

export type WebhooksReloadOutcome = { ok: true, added: string[], removed: string[], changed: string[] } | { ok: false, reason: string }

export async function reloadWebhooks (delivery: WebhookDelivery, file: string, env: NodeJS.ProcessEnv, logger: FastifyBaseLogger): Promise<WebhooksReloadOutcome> {
  // The checks of the start, with their lines (a subscriber's name and key, never a secret or URL).
  const { subscribers, problems } = loadSubscribers(file, env)
  if (problems.length > 0) {
    // In a field: the message's quoted text is scrubbed (logging.ts), and these lines quote
    // only what the checks allow (a subscriber's name, a key, an event type), never a value.
    logger.error({ subscribers: delivery.names, problems }, 'webhooks reload failed; still delivering to the previous subscribers (problems: what is wrong in WEBHOOKS)')
    return { ok: false, reason: problems.join('; ') }
  }
  try {
    const { added, removed, changed, forgotten } = await delivery.replace(subscribers)
    // Names are the operator's labels; counts, never payloads.
    logger.info({ subscribers: delivery.names, added, removed, changed, ...(forgotten.length > 0 ? { forgotten } : {}) }, 'webhooks reloaded')
    return { ok: true, added, removed, changed }
  } catch (err) {
    logger.error({ err: safeError(err), subscribers: delivery.names }, 'webhooks reload failed; still delivering to the previous subscribers: the events store could not be written now (try again)')
    return { ok: false, reason: 'event-store-unavailable' }
  }
}
