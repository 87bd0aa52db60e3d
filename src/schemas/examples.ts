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
  slot: { date: '2030-03-14', hour: '10:00', endHour: '10:30', professional: { id: '7', name: 'Dra. Helena Prado' }, location: { id: '1', address: 'Rua das Flores, 100 - Centro' } }
}
