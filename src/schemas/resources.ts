// The interface's resources (interface-spec §2): the one source of response types,
// validation and the OpenAPI document.
import Type, { type Static } from 'typebox'

const Id = Type.String({ description: 'Ids always travel as strings.' })
const DateString = Type.String({ format: 'date', description: 'YYYY-MM-DD, the clinic\'s local date' })
const HourString = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, the clinic\'s local time' })

export const Specialty = Type.Object({
  id: Id,
  name: Type.String(),
  description: Type.Optional(Type.String()),
  cbo: Type.Optional(Type.String({ description: 'Occupation classification code (CBO).' }))
}, { $id: 'Specialty' })

export const HealthInsurance = Type.Object({
  id: Id,
  name: Type.String(),
  color: Type.Optional(Type.String())
}, { $id: 'HealthInsurance' })

export const Professional = Type.Object({
  id: Id,
  name: Type.String(),
  description: Type.Optional(Type.String()),
  image: Type.Optional(Type.String()),
  expertise: Type.Optional(Type.String()),
  register: Type.Optional(Type.String()),
  specialties: Type.Optional(Type.Array(Specialty))
}, { $id: 'Professional' })

export const Location = Type.Object({
  id: Id,
  name: Type.Optional(Type.String()),
  address: Type.String(),
  city: Type.Optional(Type.String()),
  state: Type.Optional(Type.String()),
  cep: Type.Optional(Type.String()),
  lat: Type.Optional(Type.Number()),
  long: Type.Optional(Type.Number())
}, { $id: 'Location' })

export const Service = Type.Object({
  id: Id,
  name: Type.String(),
  price: Type.Optional(Type.Number()),
  duration: Type.Optional(Type.Integer({ minimum: 1, description: 'Minutes' })),
  description: Type.Optional(Type.String()),
  preparation: Type.Optional(Type.String())
}, { $id: 'Service' })

export const Client = Type.Object({
  id: Id,
  name: Type.String(),
  description: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String({ description: 'E.164' })),
  allPhones: Type.Optional(Type.Array(Type.String())),
  cpf: Type.Optional(Type.String()),
  image: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  birthday: Type.Optional(DateString),
  externalId: Type.Optional(Type.String())
}, { $id: 'Client' })

export const Appointment = Type.Object({
  id: Id,
  date: DateString,
  hour: HourString,
  endHour: Type.Optional(HourString),
  state: Type.String(),
  classification: Type.Optional(Type.String()),
  client: Type.Optional(Client),
  location: Type.Optional(Location),
  specialty: Type.Optional(Specialty),
  healthInsurance: Type.Optional(HealthInsurance),
  professional: Type.Optional(Professional),
  service: Type.Optional(Service)
}, { $id: 'Appointment' })

/** A free slot (GET /availability): nested objects abbreviated to what a chooser shows. */
export const Slot = Type.Object({
  date: DateString,
  hour: HourString,
  endHour: HourString,
  professional: Type.Object({ id: Id, name: Type.String() }),
  location: Type.Optional(Type.Object({ id: Id, name: Type.Optional(Type.String()), address: Type.String() })),
  service: Type.Optional(Type.Object({ id: Id, name: Type.String(), duration: Type.Optional(Type.Integer({ minimum: 1, description: 'Minutes' })) }))
}, { $id: 'Slot' })

export type SpecialtyT = Static<typeof Specialty>
export type HealthInsuranceT = Static<typeof HealthInsurance>
export type ProfessionalT = Static<typeof Professional>
export type LocationT = Static<typeof Location>
export type ServiceT = Static<typeof Service>
export type ClientT = Static<typeof Client>
export type AppointmentT = Static<typeof Appointment>
export type SlotT = Static<typeof Slot>
