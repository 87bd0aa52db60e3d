// The baseline's statements on SQLite (better-sqlite3): prepared once, run synchronously;
// a booking checks and writes in one synchronous transaction, so nothing else runs meanwhile.
import Database from 'better-sqlite3'
import { PHONE_EXACT_SLOTS, PHONE_PREFIX_SLOTS } from '../../src/normalise/phone.js'
import { hhmm, localNow, minutes, overlaps, weekday, windowFor, type BaselineStore, type Booking, type PhoneProbes, type Row } from './store.js'

const APPOINTMENT_SQL = `
  SELECT a.ID_AGENDA, a.DATA, a.HORA, a.DURACAO, a.SITUACAO, a.CONFIRMADO, a.TIPO_ATEND,
         a.FL_HIGIENE, a.ID_HIGIENISTA, a.ID_PROFISSIONAL, a.ID_PROCEDIMENTO, a.ID_CONVENIO,
         s.ID_UNIDADE, p.ID_ESPECIALIDADE,
         c.ID_PACIENTE, c.NOME, c.NOME_SOCIAL, c.OBS, c.EMAIL, c.PRONTUARIO, c.CPF, c.DT_NASC,
         c.CELULAR, c.FONE_RES, c.FONE_COM
  FROM AGENDA a
  LEFT JOIN SALA s ON s.ID_SALA = a.ID_SALA
  LEFT JOIN PROCEDIMENTO p ON p.ID_PROCEDIMENTO = a.ID_PROCEDIMENTO
  LEFT JOIN PACIENTE c ON c.ID_PACIENTE = a.ID_PACIENTE AND c.TIPO = 'P' AND c.DT_EXCLUSAO IS NULL
  WHERE a.EXCLUIDO <> 'S'`
const ORDER = ' ORDER BY a.DATA, a.HORA, a.ID_AGENDA'
// The phone search as one statement would best do it on this schema with the indexes
// `ponte check` recommends (the grower creates them: bench/grow.ts): the stored spellings of
// the number (phoneProbes, a pure function of it) looked up in each phone column — whole
// values by equality, values with something after the number (an extension) as a prefix
// range — each list joined from VALUES to the column's index, so each column is one index
// loop (on 1,000,000 clients 38 µs of CPU a statement, against 186 µs for `IN (…)` plus an OR
// of ranges, which SQLite runs as a MULTI-INDEX OR). A fixed number of placeholders (a number
// with fewer spellings repeats its first one), prepared once. `+ID_PACIENTE`: order the few
// rows found, or SQLite walks the key to fill the LIMIT and reads the table.
const exactValues = Array.from({ length: PHONE_EXACT_SLOTS }, (_, i) => `(@e${i})`).join(', ')
const prefixValues = Array.from({ length: PHONE_PREFIX_SLOTS }, (_, i) => `(@l${i}, @h${i})`).join(', ')
const probed = (col: string): string => `${col} IN (
    SELECT q.${col} FROM (VALUES ${exactValues}) r JOIN PACIENTE q ON q.${col} = r.column1
    UNION ALL SELECT q.${col} FROM (VALUES ${prefixValues}) r JOIN PACIENTE q ON q.${col} >= r.column1 AND q.${col} < r.column2)`
const CLIENT_SQL = `
  SELECT ID_PACIENTE, NOME, NOME_SOCIAL, OBS, EMAIL, PRONTUARIO, CPF, DT_NASC, CELULAR, FONE_RES, FONE_COM
  FROM PACIENTE
  WHERE TIPO = 'P' AND DT_EXCLUSAO IS NULL
    AND (${probed('CELULAR')} OR ${probed('FONE_RES')} OR ${probed('FONE_COM')})
  ORDER BY +ID_PACIENTE LIMIT 1000`
/** The statement's named parameters. */
const probeParams = (p: PhoneProbes): Record<string, string> => {
  const out: Record<string, string> = {}
  p.exact.forEach((e, i) => { out[`e${i}`] = e })
  p.ranges.forEach(([l, h], i) => { out[`l${i}`] = l; out[`h${i}`] = h })
  return out
}

export function openSqliteStore (file: string): BaselineStore {
  const db = new Database(file, { fileMustExist: true })
  let statements = 0
  // Parameters written `+?`, as Ponte's SQLite dialect writes them: a bare one meeting an
  // indexed column makes SQLite (STAT4 samples, which the grower's ANALYZE leaves) plan the
  // statement again at each run; on by-id that was a third of this baseline's CPU a request.
  const byRange = db.prepare(`${APPOINTMENT_SQL} AND a.DATA >= +? AND a.DATA <= +?${ORDER}`)
  const byRangeProf = db.prepare(`${APPOINTMENT_SQL} AND a.DATA >= +? AND a.DATA <= +?
    AND CASE WHEN a.FL_HIGIENE = 'S' THEN a.ID_HIGIENISTA ELSE a.ID_PROFISSIONAL END = +?${ORDER}`)
  const minimalRange = db.prepare(`SELECT a.ID_AGENDA, a.DATA, a.HORA, a.DURACAO, a.SITUACAO, a.CONFIRMADO, a.TIPO_ATEND
    FROM AGENDA a WHERE a.EXCLUIDO <> 'S' AND a.DATA >= +? AND a.DATA <= +?${ORDER}`)
  const byId = db.prepare(`${APPOINTMENT_SQL} AND a.ID_AGENDA = +?`)
  const searchPhone = db.prepare(CLIENT_SQL)
  const clientExists = db.prepare("SELECT 1 FROM PACIENTE WHERE ID_PACIENTE = +? AND TIPO = 'P' AND DT_EXCLUSAO IS NULL")
  const hoursThatDay = db.prepare(`SELECT ID_UNIDADE, HORA_INICIO, HORA_FIM, INTERVALO FROM HORARIO
    WHERE ID_PROFISSIONAL = +@professional AND DIA_SEMANA = +@weekday AND VIGENCIA_INI <= +@date AND (VIGENCIA_FIM IS NULL OR VIGENCIA_FIM >= +@date)`)
  const blockOver = db.prepare(`SELECT 1 FROM BLOQUEIO WHERE (ID_PROFISSIONAL IS NULL OR ID_PROFISSIONAL = +@professional)
    AND DT_INICIO <= +@date AND DT_FIM >= +@date AND (HORA_INICIO IS NULL OR (HORA_INICIO < +@end AND HORA_FIM > +@hour)) LIMIT 1`)
  const sameDay = db.prepare(`SELECT HORA, DURACAO FROM AGENDA WHERE DATA = +@date AND EXCLUIDO <> 'S' AND SITUACAO <> 'X'
      AND (CASE WHEN FL_HIGIENE = 'S' THEN ID_HIGIENISTA ELSE ID_PROFISSIONAL END = +@professional OR ID_PACIENTE = +@client)`)
  const bumpKey = db.prepare("UPDATE SEQUENCIAL SET ULTIMO = ULTIMO + 1 WHERE TABELA = 'AGENDA' RETURNING ULTIMO")
  const insertAppointment = db.prepare(`INSERT INTO AGENDA (ID_AGENDA, DATA, HORA, DURACAO, ID_PACIENTE, ID_PROFISSIONAL, ID_PROCEDIMENTO,
      ID_CONVENIO, PLANO, ID_SALA, FL_HIGIENE, TIPO_ATEND, EXCLUIDO, DT_CADASTRO, USUARIO, SITUACAO, CONFIRMADO, DT_ALTERACAO, USUARIO_ALT)
    VALUES (@id, @date, @hour, @minutes, @client, @professional, NULL, NULL, NULL, @room, 'N', 'C', 'N', @now, 'PONTE', 'A', 'N', @now, 'PONTE')`)
  const run = (st: Database.Statement, args: unknown): Row | undefined => { statements++; return st.get(args) as Row | undefined }
  const all = (st: Database.Statement, ...args: unknown[]): Row[] => { statements++; return st.all(...args) as Row[] }
  const book = db.transaction((b: Booking): number | string => {
    if (!run(clientExists, [b.client])) return 'no such client'
    const window = windowFor(all(hoursThatDay, { professional: b.professional, weekday: weekday(b.date), date: b.date }), b)
    if (!window) return 'outside the professional\'s hours'
    const start = minutes(b.hour)
    const end = start + (window.INTERVALO as number)
    if (run(blockOver, { professional: b.professional, date: b.date, hour: b.hour, end: hhmm(end) })) return 'blocked'
    if (overlaps(all(sameDay, { date: b.date, professional: b.professional, client: b.client }), start, end, window.INTERVALO)) return 'taken'
    const id = (run(bumpKey, []) as Row).ULTIMO as number
    statements++
    insertAppointment.run({ id, date: b.date, hour: b.hour, minutes: end - start, client: b.client, professional: b.professional, room: b.room, now: localNow() })
    return id
  })
  const table = (sql: string): Row[] => db.prepare(sql).all() as Row[]
  return {
    lookupRows: () => ({
      specialties: table('SELECT ID_ESPECIALIDADE ID, DESCRICAO, CBO FROM ESPECIALIDADE ORDER BY 1'),
      profSpecialties: table('SELECT ID_PROFISSIONAL, ID_ESPECIALIDADE FROM PROF_ESPECIALIDADE'),
      professionals: table('SELECT ID_PROFISSIONAL ID, * FROM PROFISSIONAL ORDER BY 1'),
      locations: table('SELECT ID_UNIDADE ID, * FROM UNIDADE ORDER BY 1'),
      services: table('SELECT ID_PROCEDIMENTO ID, * FROM PROCEDIMENTO ORDER BY 1'),
      insurances: table('SELECT ID_CONVENIO ID, NOME, COR FROM CONVENIO ORDER BY 1'),
      profServices: table('SELECT ID_PROCEDIMENTO, ID_PROFISSIONAL FROM PROF_PROCEDIMENTO ORDER BY ID_PROCEDIMENTO, ID_PROFISSIONAL'),
      roomOfUnit: table('SELECT ID_UNIDADE, MIN(ID_SALA) ID_SALA FROM SALA GROUP BY ID_UNIDADE'),
      profUnits: table('SELECT ID_PROFISSIONAL, ID_UNIDADE FROM PROF_UNIDADE'),
      enabledProfessionals: table("SELECT ID_PROFISSIONAL FROM PROFISSIONAL WHERE INATIVO <> 'S'")
    }),
    range: (start, end) => all(byRange, start, end),
    rangeOfProfessional: (start, end, professional) => all(byRangeProf, start, end, professional),
    minimalRange: (start, end) => all(minimalRange, start, end),
    byId: (id) => all(byId, id)[0],
    searchPhone: (probes) => all(searchPhone, probeParams(probes)),
    book,
    statements: () => statements,
    close: () => { db.close() }
  }
}
