// "Vale Verde", a rehabilitation clinic, generated here for issue 27 item 15: each therapist's
// weekday is a template string of half hours (`AAHHHH__AA` from 08:00: two assessment slots,
// four pool slots, a closed hour, two more assessment slots), and each session type may be
// booked only on some codes: assessments (7) on `A`, hydrotherapy (8) on `H`; follow-ups (9)
// are listed nowhere, so any bookable code takes them. Tuesdays of May 2033: the 3rd, 10th.
import type { Fixture, FixtureColumn } from '../../src/fixtures/format.js'

const col = (name: string, type: FixtureColumn['type'], nullable = true, length?: number): FixtureColumn =>
  ({ name, type, nullable, ...length ? { length } : {} })

export const VALE = { tuesday: '2033-05-03', nextTuesday: '2033-05-10', assessment: '7', pool: '8', followUp: '9' }

export function sessionCodesFixture (): Fixture {
  return {
    name: 'vale-verde',
    tables: [
      { name: 'terapeuta', columns: [col('id_ter', 'int', false), col('nome', 'ntext', false, 60)], primaryKey: ['id_ter'], rows: [[31, 'Lívia Prates']] },
      { name: 'paciente', columns: [{ ...col('id_pac', 'int', false), identity: true }, col('nome', 'ntext', false, 60), col('fone', 'text', true, 20)], primaryKey: ['id_pac'], rows: [[1, 'Caetano Vilela', '(48) 99911-2201'], [2, 'Norma Quintas', '(48) 99911-2202']] },
      { name: 'tipo_sessao', columns: [col('cod', 'int', false), col('titulo', 'ntext', false, 40), col('minutos', 'int', false)], primaryKey: ['cod'], rows: [[7, 'Avaliação', 30], [8, 'Hidroterapia', 60], [9, 'Retorno', 30]] },
      { name: 'grade', columns: [col('id_ter', 'int', false), col('dia', 'int', false), col('inicio', 'text', false, 5), col('fim', 'text', false, 5), col('codigos', 'text', false, 40)], primaryKey: ['id_ter', 'dia'], rows: [[31, 2, '08:00', '13:00', 'AAHHHH__AA']] },
      {
        name: 'sessao',
        columns: [{ ...col('id_sessao', 'int', false), identity: true }, col('id_pac', 'int', false), col('id_ter', 'int', false), col('cod', 'int', true),
          col('data', 'date', false), col('hora', 'text', false, 5), col('hora_fim', 'text', true, 5), col('st', 'char', false, 1)],
        primaryKey: ['id_sessao'],
        indexes: [['data']],
        rows: []
      }
    ]
  }
}

export const SESSION_CODES_MAPPING = `
version: 1
installation: vale-verde
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states: { values: [WAITING, CANCELED], free: [CANCELED] }
resources:
  appointment:
    table: sessao
    key: id_sessao
    start:
      date: { column: data, format: date }
      hour: { column: hora, format: text }
    end: { hour: { column: hora_fim, format: text } }
    state: { column: st, map: { P: WAITING, X: CANCELED } }
    refs: { client: id_pac, professional: id_ter, service: cod }
    write:
      key: { generate: identity }
      states: { WAITING: { st: { value: P } } }
  client:
    table: paciente
    key: id_pac
    fields: { name: nome }
    phones: [fone]
  professional:
    table: terapeuta
    key: id_ter
    fields: { name: nome }
  service:
    table: tipo_sessao
    key: cod
    fields: { name: titulo, duration: minutos }
availability:
  weekly:
    table: grade
    professional: id_ter
    weekday: dia
    start: inicio
    end: fim
    pattern:
      codes: codigos
      services: { '7': A, '8': H }
`
