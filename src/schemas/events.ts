// The events of change detection as the wire has them: the pull feed's query and answer
// (GET /events) and one event, which the OpenAPI document's `webhooks` describe per type.
import Type, { type Static } from 'typebox'
import { EVENT_TYPES } from '../events/event.js'

const closed = { additionalProperties: false } as const

/** The longest a feed request waits for an event (seconds). */
export const MAX_WAIT_SECONDS = 30

export const EventsQuery = Type.Object({
  after: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0, description: 'The cursor: events after this `seq` (the previous answer\'s `next`; 0 for the oldest kept).' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'How many events at most.' })),
  wait: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_WAIT_SECONDS, default: 0, description: `Seconds to wait for an event after the cursor when there is none yet (long-poll, at most ${MAX_WAIT_SECONDS}); 0 answers at once.` }))
}, closed)

const Previous = Type.Object({
  date: Type.Optional(Type.String({ description: 'The date before a reschedule.' })),
  hour: Type.Optional(Type.String({ description: 'The hour before a reschedule.' })),
  endHour: Type.Optional(Type.String({ description: 'The end hour before a reschedule.' })),
  state: Type.Optional(Type.String({ description: 'The state before a state change (or a cancellation).' }))
}, { description: 'What changed, as it was before: `date`/`hour` on `appointment.rescheduled`, `state` on `appointment.state_changed` and `appointment.canceled`.' })

export const ChangeEventSchema = Type.Object({
  seq: Type.Integer({ minimum: 1, description: 'The event\'s place in the log: the cursor `after` takes.' }),
  id: Type.String({ description: 'Stable for the event\'s life (a webhook\'s `webhook-id`): the same event read twice has the same id.' }),
  type: Type.Union(EVENT_TYPES.map((t) => Type.Literal(t)), { description: 'What happened to the appointment.' }),
  seenAt: Type.String({ description: 'When Ponte saw the change (ISO 8601, UTC): on the poll after a change in the clinic\'s program, at once for a write through Ponte.' }),
  appointmentId: Type.String({ description: 'The appointment the event is about.' }),
  data: Type.Object({
    appointment: Type.Union([{ $ref: 'Appointment#' }, Type.Object({ id: Type.String() }, closed)], { description: 'The appointment as `GET /appointments/{id}` answered when the change was seen; only its `id` when deleted.' }),
    previous: Type.Optional(Previous),
    changed: Type.Optional(Type.Array(Type.String(), { description: 'On `appointment.updated`: the fields that changed (a nested record counts when its id does).' }))
  })
}, { $id: 'Event', description: 'A change to one appointment, made in the clinic\'s own program (seen by a poll) or through Ponte.' })

export const EventsPage = Type.Object({
  events: Type.Array({ $ref: 'Event#' }, { description: 'The events after the cursor, oldest first.' }),
  next: Type.Integer({ minimum: 0, description: 'The cursor for the next request: the last event\'s `seq`, or the `after` sent when there is none.' })
}, { description: 'A page of the event feed.' })

export type EventsQueryT = Static<typeof EventsQuery>

/** What each event type means, for the OpenAPI document's `webhooks`. */
export const EVENT_MEANING: Record<typeof EVENT_TYPES[number], string> = {
  'appointment.created': 'An appointment appeared: booked at the desk, or through Ponte.',
  'appointment.updated': 'Fields other than its date, hour and state changed (`data.changed` names them).',
  'appointment.rescheduled': 'It moved to another date or hour (`data.previous` holds the old ones).',
  'appointment.state_changed': 'Its state changed (`data.previous.state` holds the old one).',
  'appointment.canceled': 'Its state moved into one that frees the slot (sent besides `appointment.state_changed`).',
  'appointment.deleted': 'It no longer exists (`data.appointment` holds only its id). One that moved out of the watched window is not deleted.'
}
