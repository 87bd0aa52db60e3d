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

export type AppointmentListQueryT = Static<typeof AppointmentListQuery>
