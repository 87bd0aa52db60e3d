// Request shapes of the interface (interface-spec §4), validated before any handler runs.
// Every query schema is closed (additionalProperties: false): a misspelt or unknown parameter
// is a 400 naming it, never a filter silently dropped that widens the answer.
import Type, { type Static } from 'typebox'

/** The longest id Ponte takes, in a query or a path (app.ts: the router's maxParamLength). */
export const MAX_ID_LENGTH = 200
const closed = { additionalProperties: false } as const

const IdParam = Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH })
const Flag = Type.Boolean()

export const ByIdParams = Type.Object({ id: IdParam })

/** A day as a query gives it: YYYY-MM-DD, or an ISO date-time whose local date is taken (services/date-range.ts reads it). */
const DayQuery = (description: string) => Type.String({ minLength: 1, pattern: '^\\d{4}-\\d{2}-\\d{2}([T ].*)?$', description, examples: ['2030-03-14'] })

export const AppointmentListQuery = Type.Object({
  start: DayQuery('First day (YYYY-MM-DD, or an ISO date-time: its local date)'),
  end: DayQuery('Last day, included'),
  location: Type.Optional(IdParam),
  service: Type.Optional(IdParam),
  professional: Type.Optional(IdParam),
  client: Type.Optional(IdParam),
  state: Type.Optional(Type.String({ minLength: 1 })),
  minimal: Type.Optional(Flag)
}, closed)

export const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }))
}, closed)

export const ClientSearchQuery = Type.Object({
  term: Type.String({ minLength: 1, maxLength: 200 }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }))
}, closed)

export const ProfessionalQuery = Type.Object({
  location: Type.Optional(IdParam),
  service: Type.Optional(IdParam),
  healthInsurance: Type.Optional(IdParam),
  specialty: Type.Optional(IdParam),
  enabled: Type.Optional(Flag)
}, closed)

export const LocationQuery = Type.Object({
  service: Type.Optional(IdParam),
  professional: Type.Optional(IdParam),
  specialty: Type.Optional(IdParam),
  client: Type.Optional(IdParam)
}, closed)

export const ServiceQuery = Type.Object({
  location: Type.Optional(IdParam),
  professional: Type.Optional(IdParam),
  healthInsurance: Type.Optional(IdParam),
  specialty: Type.Optional(IdParam),
  plan: Type.Optional(IdParam),
  client: Type.Optional(IdParam),
  enabled: Type.Optional(Flag)
}, closed)

export const HealthInsuranceQuery = Type.Object({
  service: Type.Optional(IdParam),
  location: Type.Optional(IdParam),
  professional: Type.Optional(IdParam)
}, closed)

export const SpecialtyQuery = Type.Object({
  healthInsurance: Type.Optional(IdParam),
  location: Type.Optional(IdParam),
  plan: Type.Optional(IdParam),
  professional: Type.Optional(IdParam)
}, closed)

export const AvailabilityQuery = Type.Object({
  start: DayQuery('First day (YYYY-MM-DD, or an ISO date-time: its local date)'),
  end: DayQuery('Last day, included; at most 31 days in all'),
  professional: Type.Optional(IdParam),
  service: Type.Optional(IdParam),
  location: Type.Optional(IdParam),
  specialty: Type.Optional(IdParam),
  healthInsurance: Type.Optional(IdParam)
}, closed)

export type AppointmentListQueryT = Static<typeof AppointmentListQuery>

// ---- request bodies ----

const DateBody = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}', description: 'YYYY-MM-DD (a full ISO date-time is accepted; its date is used)' })
const HourBody = Type.String({ pattern: '^\\d{1,2}:\\d{2}$', description: 'HH:MM, the clinic\'s local time' })
const IdBody = Type.String({ minLength: 1, maxLength: MAX_ID_LENGTH })

export const NewClientBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  phone: Type.String({ minLength: 1, maxLength: 40 }),
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
