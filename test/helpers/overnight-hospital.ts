// "Hospital Beira-Rio", its night emergency desk: a small hospital schema generated here for
// what the samples do not have (issue 27 item 14): shifts that run past midnight (a weekly
// row 22:00 → 06:00), appointments kept as a date, a start time and an end time earlier than
// the start (23:00 → 00:30: the next day), a service longer than a slot (90 minutes) and a
// handover block from 23:00 to 01:00. Wednesdays of March 2032 are the 3rd, 10th, 17th, 24th.
import type { Fixture } from '../../src/fixtures/format.js'
import { col } from './fixture-columns.js'

export const HOSPITAL = {
  /** Both doctors work Wednesday nights 22:00 → Thursday 06:00 (weekday 3 in the template). */
  night1: '2032-03-03',
  /** … whose Thursday morning (the shift's end). */
  morning1: '2032-03-04',
  /** A free night: bookings cross its midnight. */
  night2: '2032-03-10',
  morning2: '2032-03-11',
  /** A handover block from 23:00 to 01:00 (date bounds, hours ending the next day). */
  night3: '2032-03-17',
  morning3: '2032-03-18',
  night4: '2032-03-24',
  morning4: '2032-03-25',
  /** The service of 90 minutes (observation) and of 30 (triage). */
  observation: '2',
  triage: '1'
}

export function overnightHospitalFixture (): Fixture {
  return {
    name: 'beira-rio-noturno',
    tables: [
      { name: 'plantonista', columns: [col('crm', 'int', false), col('nome_medico', 'ntext', false, 80)], primaryKey: ['crm'], rows: [[501, 'Dra. Iara Tavares'], [502, 'Dr. Otávio Lins']] },
      { name: 'internado', columns: [{ ...col('prontuario', 'int', false), identity: true }, col('nome_paciente', 'ntext', false, 80), col('fone', 'text', true, 20)], primaryKey: ['prontuario'], rows: [[1, 'Celina Rocha', '(51) 99876-1001'], [2, 'Bento Arruda', '(51) 99876-1002'], [3, 'Heitor Paiva', '(51) 99876-1003']] },
      { name: 'procedimento', columns: [col('cod_proc', 'int', false), col('descricao', 'ntext', false, 60), col('minutos', 'int', false)], primaryKey: ['cod_proc'], rows: [[1, 'Triagem', 30], [2, 'Observação', 90]] },
      {
        name: 'atendimento',
        columns: [{ ...col('num_atend', 'int', false), identity: true }, col('prontuario', 'int', false), col('crm', 'int', false), col('cod_proc', 'int', true),
          col('dia', 'date', false), col('entrada', 'time', false), col('saida', 'time', true), col('situacao', 'char', false, 1)],
        primaryKey: ['num_atend'],
        indexes: [['dia']],
        // Doctor 501 sees Celina from 23:00 on the first Wednesday until 00:30 on Thursday.
        rows: [[1, 1, 501, 1, HOSPITAL.night1, '23:00:00', '00:30:00', 'M']]
      },
      {
        name: 'escala_noturna',
        columns: [col('id', 'int', false), col('crm', 'int', false), col('dia_semana', 'int', false), col('entra', 'text', false, 5), col('sai', 'text', false, 5)],
        primaryKey: ['id'],
        rows: [[1, 501, 3, '22:00', '06:00'], [2, 502, 3, '22:00', '06:00']]
      },
      {
        name: 'passagem_plantao',
        columns: [col('id', 'int', false), col('crm', 'int', false), col('dia', 'date', false), col('de', 'text', false, 5), col('ate', 'text', false, 5)],
        primaryKey: ['id'],
        rows: [[1, 501, HOSPITAL.night3, '23:00', '01:00']]
      }
    ]
  }
}

export const OVERNIGHT_MAPPING = `
version: 1
installation: beira-rio-noturno
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED, CANCELED]
  free: [CANCELED]
resources:
  appointment:
    table: atendimento
    key: num_atend
    start:
      date: { column: dia, format: date }
      hour: { column: entrada, format: time }
    end: { hour: { column: saida, format: time } }
    state: { column: situacao, map: { M: WAITING, C: CONFIRMED, X: CANCELED } }
    refs: { client: prontuario, professional: crm, service: cod_proc }
    write:
      key: { generate: identity }
      states: { WAITING: { situacao: { value: M } }, CANCELED: { situacao: { value: X } } }
  client:
    table: internado
    key: prontuario
    fields: { name: nome_paciente }
    phones: [fone]
  professional:
    table: plantonista
    key: crm
    fields: { name: nome_medico }
  service:
    table: procedimento
    key: cod_proc
    fields: { name: descricao, duration: minutos }
availability:
  slotMinutes: 30
  weekly:
    table: escala_noturna
    professional: crm
    weekday: dia_semana
    start: entra
    end: sai
  blocks:
    - table: passagem_plantao
      professional: crm
      from: { column: dia, format: date }
      start: de
      end: ate
`
