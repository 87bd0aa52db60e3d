// "Pronto Noturno": a small night clinic, generated here, for what the samples do not have
// (issue 25): hours that run until midnight — a weekly template row '20:00'…'00:00' and dated
// shifts from 20:00 to the next day's 00:00 — and absences whose last day is text holding the
// zero date '0000-00-00' (declared `nullIf`), an empty string, or '9999-12-31' (open-ended).
// One appointment runs until midnight too. A holiday table keeps its days as YYYYMMDD numbers.
// Mondays of March 2031 are the 10th, 17th, 24th and 31st; doctor 1 also works their mornings,
// which the old readings of midnight never touched: what blocks them is the absences alone.
import type { Fixture } from '../../src/fixtures/format.js'
import { col } from './fixture-columns.js'

/** Who works when, and what blocks them, as the tests expect it to act. */
export const NIGHT = {
  /** Doctor 1 works Mondays 08:00–10:00 and 20:00–00:00 (the weekly template). */
  monday: '2031-03-10',
  /** … but not on the 17th: an absence whose last day is '0000-00-00' (the one day). */
  zeroEnd: '2031-03-17',
  /** … nor on the 24th from 08:00 to 09:00: an absence whose last day is '' (the one day). */
  blankMorning: '2031-03-24',
  /** … nor from the 31st on: an absence until '9999-12-31'. */
  openFrom: '2031-03-31',
  nextMonday: '2031-04-07',
  /** Doctor 2 works dated shifts 20:00 → next day 00:00 on these Tuesdays. */
  shifts: ['2031-03-11', '2031-03-18', '2031-03-25'],
  /** On the 18th doctor 2 is away from 22:00 until 00:00 (an absence whose last day is ''). */
  blankNight: '2031-03-18',
  /** On the 25th an appointment holds doctor 2 from 22:00 until midnight. */
  heldUntilMidnight: '2031-03-25'
}

export function nightClinicFixture (extra: Partial<Record<string, unknown[][]>> = {}): Fixture {
  const rows = (table: string, own: unknown[][]): unknown[][] => [...own, ...(extra[table] ?? [])]
  return {
    name: 'pronto-noturno',
    tables: [
      { name: 'medico', columns: [col('cod_med', 'int', false), col('nome', 'ntext', false, 80), col('ativo', 'bit', false)], primaryKey: ['cod_med'], rows: rows('medico', [[1, 'Dra. Noemi Farias', 1], [2, 'Dr. Caio Brandão', 1]]) },
      { name: 'paciente', columns: [{ ...col('cod_pac', 'int', false), identity: true }, col('nome', 'ntext', false, 80), col('celular', 'text', true, 20)], primaryKey: ['cod_pac'], rows: rows('paciente', [[1, 'Rita Moura', '(11) 98765-0001'], [2, 'Jonas Prado', '(11) 98765-0002']]) },
      {
        name: 'consulta',
        columns: [{ ...col('cod_cons', 'int', false), identity: true }, col('cod_pac', 'int', false), col('cod_med', 'int', false), col('inicio', 'datetime', false), col('fim', 'datetime'), col('situacao', 'char', false, 1)],
        primaryKey: ['cod_cons'],
        indexes: [['inicio']],
        rows: rows('consulta', [[1, 2, 2, `${NIGHT.heldUntilMidnight} 22:00:00`, '2031-03-26 00:00:00', 'A']])
      },
      {
        name: 'escala',
        columns: [col('id', 'int', false), col('cod_med', 'int', false), col('dia_semana', 'int', false), col('hora_ini', 'text', false, 5), col('hora_fim', 'text', false, 5), col('valido_ate', 'text', true, 10)],
        primaryKey: ['id'],
        rows: rows('escala', [[1, 1, 1, '08:00', '10:00', null], [2, 1, 1, '20:00', '00:00', null]])
      },
      {
        name: 'plantao',
        columns: [col('id', 'int', false), col('cod_med', 'int', false), col('entrada', 'datetime', false), col('saida', 'datetime', false)],
        primaryKey: ['id'],
        indexes: [['entrada']],
        rows: rows('plantao', NIGHT.shifts.map((day, i) => [i + 1, 2, `${day} 20:00:00`, `2031-03-${Number(day.slice(-2)) + 1} 00:00:00`]))
      },
      {
        name: 'afastamento',
        columns: [col('id', 'int', false), col('cod_med', 'int', false), col('desde', 'text', false, 10), col('ate', 'text', true, 10), col('hora_ini', 'text', true, 5), col('hora_fim', 'text', true, 5)],
        primaryKey: ['id'],
        indexes: [['desde']],
        rows: rows('afastamento', [
          [1, 1, NIGHT.zeroEnd, '0000-00-00', null, null],
          [2, 1, NIGHT.blankMorning, '', '08:00', '09:00'],
          [3, 1, NIGHT.openFrom, '9999-12-31', null, null],
          [4, 2, NIGHT.blankNight, '', '22:00', '00:00']
        ])
      },
      { name: 'feriado', columns: [col('id', 'int', false), col('dia', 'int', false)], primaryKey: ['id'], rows: rows('feriado', [[1, 20310501]]) }
    ]
  }
}

export const NIGHT_MAPPING = `
version: 1
installation: pronto-noturno
timezone: America/Sao_Paulo
phone: { defaultCountry: BR }
states:
  values: [WAITING, CONFIRMED, CANCELED]
  free: [CANCELED]
resources:
  appointment:
    table: consulta
    key: cod_cons
    start: { datetime: { column: inicio, format: datetime } }
    end: { datetime: { column: fim, format: datetime } }
    state: { column: situacao, map: { A: WAITING, C: CONFIRMED, X: CANCELED } }
    refs: { client: cod_pac, professional: cod_med }
    write:
      key: { generate: identity }
      states: { WAITING: { situacao: { value: A } } }
  client:
    table: paciente
    key: cod_pac
    fields: { name: nome }
    phones: [celular]
  professional:
    table: medico
    key: cod_med
    fields: { name: nome }
    enabled: ativo
availability:
  slotMinutes: 30
  weekly:
    table: escala
    professional: cod_med
    weekday: dia_semana
    start: hora_ini
    end: hora_fim
    validTo: { column: valido_ate, format: text }
  dated:
    table: plantao
    professional: cod_med
    start: { column: entrada, format: datetime }
    end: { column: saida, format: datetime }
  blocks:
    - table: afastamento
      professional: cod_med
      from: { column: desde, format: text }
      to: { column: ate, format: text, nullIf: ['0000-00-00'] }
      start: hora_ini
      end: hora_fim
    - table: feriado
      from: { column: dia, format: int }
`
