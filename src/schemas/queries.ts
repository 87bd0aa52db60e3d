// Request shapes of the interface (interface-spec §4), validated before any handler runs.
// Every query schema is closed (additionalProperties: false): a misspelt or unknown parameter
// is a 400 naming it, never a filter silently dropped that widens the answer.
import Type, { type Static } from 'typebox'

/** The longest id Ponte takes, in a query or a path (app.ts: the router's maxParamLength). */
export const MAX_ID_LENGTH = 200
const closed = { additionalProperties: false } as const

/** A filter by a related record's id, described for the document. */
const By = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, description }))
const Enabled = Type.Optional(Type.Boolean({ description: 'true: only those taking new bookings; false: only disabled ones. Default: both.' }))

export const ByIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH, description: 'The record\'s id, as the lists give it.' }) })

/** A day as a query gives it: YYYY-MM-DD, or an ISO date-time whose local date is taken (services/date-range.ts reads it). */
const DayQuery = (description: string) => Type.String({ minLength: 1, pattern: '^\\d{4}-\\d{2}-\\d{2}([T ].*)?$', description, examples: ['2030-03-14'] })

export const AppointmentListQuery = Type.Object({
  start: DayQuery('First day (YYYY-MM-DD, or an ISO date-time: its local date)'),
  end: DayQuery('Last day, included'),
  location: By('Only appointments at this location.'),
  service: By('Only appointments for this service.'),
  professional: By('Only appointments with this professional.'),
  client: By('Only this client\'s appointments.'),
  state: Type.Optional(Type.String({ minLength: 1, description: 'Only appointments in this state (one of the states this installation uses).' })),
  minimal: Type.Optional(Type.Boolean({ description: 'true: related records as their ids only, without their nested objects.' }))
}, closed)

const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, description: 'How many clients at most.' }))
const Offset = Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'How many to skip (the page\'s start).' }))

export const PageQuery = Type.Object({ limit: Limit, offset: Offset }, closed)

export const ClientSearchQuery = Type.Object({
  term: Type.String({ minLength: 1, maxLength: 200, description: 'A phone, CPF, e-mail or name, as people type it (masks, spaces and case do not matter).', examples: ['(11) 98765-4321'] }),
  limit: Limit,
  offset: Offset
}, closed)

export const ProfessionalQuery = Type.Object({
  location: By('Only those related to this location.'),
  service: By('Only those related to this service.'),
  healthInsurance: By('Only those related to this health insurance.'),
  specialty: By('Only those related to this specialty.'),
  enabled: Enabled
}, closed)

export const LocationQuery = Type.Object({
  service: By('Only those related to this service.'),
  professional: By('Only those related to this professional.'),
  specialty: By('Only those related to this specialty.'),
  client: By('Only those related to this client.')
}, closed)

export const ServiceQuery = Type.Object({
  location: By('Only those related to this location.'),
  professional: By('Only those related to this professional.'),
  healthInsurance: By('Only those related to this health insurance.'),
  specialty: By('Only those related to this specialty.'),
  plan: By('Only those related to this health plan.'),
  client: By('Only those related to this client.'),
  enabled: Enabled
}, closed)

export const HealthInsuranceQuery = Type.Object({
  service: By('Only those related to this service.'),
  location: By('Only those related to this location.'),
  professional: By('Only those related to this professional.')
}, closed)

export const SpecialtyQuery = Type.Object({
  healthInsurance: By('Only those related to this health insurance.'),
  location: By('Only those related to this location.'),
  plan: By('Only those related to this health plan.'),
  professional: By('Only those related to this professional.')
}, closed)

export const AvailabilityQuery = Type.Object({
  start: DayQuery('First day (YYYY-MM-DD, or an ISO date-time: its local date)'),
  end: DayQuery('Last day, included; at most 31 days in all'),
  professional: By('Only slots with this professional.'),
  service: By('Only slots that can take this service.'),
  location: By('Only slots at this location.'),
  specialty: By('Only slots with professionals of this specialty.'),
  healthInsurance: By('Only slots with professionals who take this health insurance.')
}, closed)

export type AppointmentListQueryT = Static<typeof AppointmentListQuery>

// ---- request bodies ----

const DateBody = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}', description: 'YYYY-MM-DD (a full ISO date-time is accepted; its date is used)' })
const HourBody = Type.String({ pattern: '^\\d{1,2}:\\d{2}$', description: 'HH:MM, the clinic\'s local time' })
const IdBody = Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH })

export const NewClientBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  phone: Type.String({ minLength: 1, maxLength: 40 }),
  allPhones: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 10, description: 'Every number of the client, `phone` among them or not: those besides it go to the installation\'s other phone columns, in order (more than it has are refused, naming allPhones)' })),
  email: Type.Optional(Type.String({ maxLength: 200 })),
  birthday: Type.Optional(DateBody),
  cpf: Type.Optional(Type.String({ maxLength: 20 })),
  healthInsurance: Type.Optional(IdBody),
  location: Type.Optional(IdBody)
}, { additionalProperties: false })

export const ClientPatchBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  email: Type.Optional(Type.String({ maxLength: 200 })),
  cpf: Type.Optional(Type.String({ maxLength: 20 })),
  birthday: Type.Optional(DateBody)
}, { additionalProperties: false, minProperties: 1 })

export const NewAppointmentBody = Type.Object({
  date: DateBody,
  hour: HourBody,
  client: IdBody,
  professional: Type.Optional(IdBody),
  service: Type.Optional(IdBody),
  location: Type.Optional(IdBody),
  healthInsurance: Type.Optional(IdBody),
  plan: Type.Optional(IdBody)
}, { additionalProperties: false })

export const StateBody = Type.Object({
  state: Type.String({ minLength: 1, maxLength: 40 })
}, { additionalProperties: false })

export const TimeBody = Type.Object({
  date: DateBody,
  hour: HourBody
}, { additionalProperties: false })
