// Request shapes of the interface (interface-spec §4), validated before any handler runs.
import Type, { type Static } from 'typebox'

const IdParam = Type.String({ minLength: 1, maxLength: 200 })
const Flag = Type.Boolean()

export const ByIdParams = Type.Object({ id: IdParam })

export const AppointmentListQuery = Type.Object({
  start: Type.String({ minLength: 1, description: 'First day (YYYY-MM-DD, or an ISO date-time: its local date)' }),
  end: Type.String({ minLength: 1, description: 'Last day, included' }),
  location: Type.Optional(IdParam),
  service: Type.Optional(IdParam),
  professional: Type.Optional(IdParam),
  client: Type.Optional(IdParam),
  state: Type.Optional(Type.String({ minLength: 1 })),
  minimal: Type.Optional(Flag)
})

export const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }))
})

export const ClientSearchQuery = Type.Object({
  term: Type.String({ minLength: 1, maxLength: 200 }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 }))
})

export const ProfessionalQuery = Type.Object({
  location: Type.Optional(IdParam),
  service: Type.Optional(IdParam),
  healthInsurance: Type.Optional(IdParam),
  specialty: Type.Optional(IdParam),
  enabled: Type.Optional(Flag)
})

export const LocationQuery = Type.Object({
  service: Type.Optional(IdParam),
  professional: Type.Optional(IdParam),
  specialty: Type.Optional(IdParam),
  client: Type.Optional(IdParam)
})

export const ServiceQuery = Type.Object({
  location: Type.Optional(IdParam),
  professional: Type.Optional(IdParam),
  healthInsurance: Type.Optional(IdParam),
  specialty: Type.Optional(IdParam),
  plan: Type.Optional(IdParam),
  client: Type.Optional(IdParam),
  enabled: Type.Optional(Flag)
})

export const HealthInsuranceQuery = Type.Object({
  service: Type.Optional(IdParam),
  location: Type.Optional(IdParam),
  professional: Type.Optional(IdParam)
})

export const SpecialtyQuery = Type.Object({
  healthInsurance: Type.Optional(IdParam),
  location: Type.Optional(IdParam),
  plan: Type.Optional(IdParam),
  professional: Type.Optional(IdParam)
})

export const AvailabilityQuery = Type.Object({
  start: Type.String({ minLength: 1, description: 'First day (YYYY-MM-DD, or an ISO date-time: its local date)' }),
  end: Type.String({ minLength: 1, description: 'Last day, included; at most 31 days in all' }),
  professional: Type.Optional(IdParam),
  service: Type.Optional(IdParam),
  location: Type.Optional(IdParam),
  specialty: Type.Optional(IdParam),
  healthInsurance: Type.Optional(IdParam)
})

export type AppointmentListQueryT = Static<typeof AppointmentListQuery>

// ---- request bodies ----

const DateBody = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}', description: 'YYYY-MM-DD (a full ISO date-time is accepted; its date is used)' })
const HourBody = Type.String({ pattern: '^\\d{1,2}:\\d{2}$', description: 'HH:MM, the clinic\'s local time' })
const IdBody = Type.String({ minLength: 1, maxLength: 200 })

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
