// GET /events: the pull feed of change detection, read by cursor, with an optional long-poll.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { CursorAheadError, EventsExpiredError, NotFoundError } from '../errors.js'
import { EventsPage, EventsQuery } from '../schemas/events.js'
import { jsonBody, responses } from '../schemas/responses.js'
import { examples } from '../schemas/examples.js'

const events: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/events', {
    schema: {
      tags: ['events'],
      operationId: 'listEvents',
      summary: 'Changes to appointments, after a cursor',
      description: 'Events (bookings, changes, moves, state changes, cancellations, deletions) seen in the clinic\'s database or made through Ponte, oldest first, after the cursor `after`; `next` is the cursor to send next. With `wait`, an answer without events waits up to that many seconds for one. 404 when the mapping declares no change detection (`resources.appointment.changes`).',
      querystring: EventsQuery,
      response: responses(jsonBody(EventsPage, 'The events after the cursor, and the next cursor', { events: [examples.event], next: examples.event.seq }), 'list', [404, 409, 410])
    }
  }, async (request) => {
    if (app.ponte.compiled.model.appointment.changes === undefined) throw new NotFoundError('Change detection (events) is not mapped for this installation.')
    const after = request.query.after ?? 0
    const limit = request.query.limit ?? 100
    const wait = request.query.wait ?? 0
    // A cursor into purged events, or past the head, would silently skip events: said instead.
    if (after > 0) {
      const oldest = await app.eventLog.oldestCursor()
      if (after < oldest) throw new EventsExpiredError(oldest)
      const head = await app.eventLog.head()
      if (after > head) throw new CursorAheadError(head)
    }
    let found = await app.eventLog.after(after, limit)
    if (found.length === 0 && wait > 0) {
      // The wait ends early when the caller goes away or the server closes.
      const gone = new AbortController()
      const abort = (): void => { gone.abort() }
      request.raw.once('close', abort)
      try {
        await app.eventLog.waitAfter(after, wait * 1000, gone.signal)
      } finally {
        request.raw.off('close', abort)
      }
      found = await app.eventLog.after(after, limit)
    }
    return { events: found, next: found.length > 0 ? found[found.length - 1].seq : after }
  })
}

export default events
