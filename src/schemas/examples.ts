// One example per resource, for the OpenAPI document (each must validate against its schema:
// the linter checks them). Made-up data, never a fixture's patient.
export const examples = {
  specialty: { id: '3', name: 'Ortodontia' },
  healthInsurance: { id: '2', name: 'Saúde Total' },
  professional: { id: '7', name: 'Dra. Helena Prado', register: 'CRO-SP 12345' },
  location: { id: '1', name: 'Unidade Centro', address: 'Rua das Flores, 100 - Centro', city: 'São Paulo', state: 'SP' },
  service: { id: '12', name: 'Limpeza', duration: 30, price: 150 },
  client: { id: '4021', name: 'Ana Exemplo', phone: '+5511900000000', email: 'ana@example.com', birthday: '1990-05-17' },
  appointment: {
    id: '88231',
    date: '2030-03-14',
    hour: '09:30',
    endHour: '10:00',
    state: 'WAITING',
    client: { id: '4021', name: 'Ana Exemplo', phone: '+5511900000000' },
    professional: { id: '7', name: 'Dra. Helena Prado' },
    service: { id: '12', name: 'Limpeza', duration: 30 },
    location: { id: '1', address: 'Rua das Flores, 100 - Centro' }
  },
  event: {
    seq: 42,
    id: 'evt_6f1c1a52-3a0e-4d1b-9b8e-2f5d0c7e9a10',
    type: 'appointment.rescheduled',
    seenAt: '2030-03-10T14:02:31.000Z',
    appointmentId: '88231',
    data: {
      appointment: { id: '88231', date: '2030-03-14', hour: '09:30', endHour: '10:00', state: 'WAITING', professional: { id: '7', name: 'Dra. Helena Prado' } },
      previous: { date: '2030-03-13', hour: '15:00', endHour: '15:30' }
    }
  },
  slot: { date: '2030-03-14', hour: '10:00', endHour: '10:30', professional: { id: '7', name: 'Dra. Helena Prado' }, location: { id: '1', address: 'Rua das Flores, 100 - Centro' } }
}
