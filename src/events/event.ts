// What an event says: a change to one appointment, seen in the clinic's database (a poll) or
// made through Ponte. One shape for the pull feed (`GET /events`) and for webhooks.

export const EVENT_TYPES = [
  'appointment.created',
  'appointment.updated',
  'appointment.rescheduled',
  'appointment.state_changed',
  'appointment.canceled',
  'appointment.deleted'
] as const

export type EventType = typeof EVENT_TYPES[number]

export interface ChangeEvent {
  /** Position in the event log: the cursor of `GET /events?after=` and of each subscriber. */
  seq: number
  /** Stable for the event's life: the `webhook-id` of every delivery attempt of it. */
  id: string
  type: EventType
  /** When Ponte saw the change (ISO 8601, UTC). */
  seenAt: string
  appointmentId: string
  /**
   * The appointment as `GET /appointments/{id}` answered when the change was seen (`appointment`),
   * or `{ id }` when deleted; `changed` (field names) for updates, `previous` (old values) for
   * reschedules and state changes.
   */
  data: Record<string, unknown>
}

/** An event before the log gives it a place, an id and (unless given) the time it was seen. */
export type NewEvent = Pick<ChangeEvent, 'type' | 'appointmentId' | 'data'> & { seenAt?: string }
