// A random small legacy installation: a schema (2–5 rows a table) and a mapping the compiler
// accepts, varying independently each trait the write invariant depends on — how a client's
// name, phones, e-mail, birthday and CPF are kept, how keys are made and typed, how an
// appointment's start and state are stored, and how its refs are held.
import type { TestDialect } from '../app.js'
import type { Random } from './random.js'
import { type Country } from './values.js'

export const STATES = ['WAITING', 'CONFIRMED', 'CANCELED', 'MISSED', 'DONE'] as const
export const DAYS = ['2031-03-03', '2031-03-04', '2031-03-05', '2031-03-06', '2031-03-07']

export interface Shape {
  country: Country
  areaCode?: string
  name: 'column' | 'template' | 'coalesce'
  phones: 1 | 2 | 3
  phoneFormat: 'e164' | 'digits' | 'national' | 'masked'
  /** own column; a child row written `after`; a child row the mapping does not write; not mapped. */
  email: 'column' | 'row' | 'read-only row' | 'none'
  birthday: 'date' | 'dmy' | 'text' | 'none'
  cpf: 'digits' | 'masked' | 'none'
  /** Staff share the client table (a base filter, written back by `write.set`). */
  staff: boolean
  clientKey: { type: 'int' | 'text', generate: 'max' | 'keyTable' }
  appointmentKey: { type: 'int' | 'text', generate: 'max' | 'keyTable' }
  start: 'date + text hour' | 'date + hhmm' | 'datetime'
  stateCodes: 'int' | 'char'
  states: string[]
  restrictedMoves: boolean
  onReschedule: 'initial' | 'keep'
  professionalRequired: boolean
  /** A plain column; the patient's coverage row (read-only); the same declared `firstOf`; not mapped. */
  insurance: 'column' | 'coverage' | 'coverage firstOf' | 'none'
  clientIgnore: string[]
  appointmentIgnore: string[]
}

export interface Seeded {
  clients: string[]
  appointments: string[]
  professionals: string[]
  services: string[]
  insurers: string[]
}

export interface Installation {
  shape: Shape
  schema: string
  mapping: string
  seeded: Seeded
  /** Every table, and the column whose value says which record a row belongs to. */
  owners: Record<string, string>
}

export function randomShape (r: Random): Shape {
  const country = r.pick(['BR', 'US', 'PT'] as const)
  const email = r.pick(['column', 'row', 'read-only row', 'none'] as const)
  // A `firstOf` through the patient's own row makes every appointment write a 501: rarer, so
  // most installations book.
  const insurance = r.chance(0.08) ? 'coverage firstOf' : r.pick(['column', 'coverage', 'none'] as const)
  const states = ['WAITING', 'CONFIRMED', 'CANCELED', ...r.some(['MISSED', 'DONE'])]
  return {
    country,
    areaCode: country === 'BR' && r.chance(0.8) ? r.pick(['11', '21', '85']) : undefined,
    name: r.pick(['column', 'template', 'coalesce'] as const),
    phones: r.pick([1, 2, 3] as const),
    phoneFormat: r.pick(['e164', 'digits', 'national', 'masked'] as const),
    email,
    birthday: r.pick(['date', 'dmy', 'text', 'none'] as const),
    cpf: r.pick(['digits', 'masked', 'none'] as const),
    staff: r.chance(0.4),
    clientKey: { type: r.pick(['int', 'text'] as const), generate: r.pick(['max', 'keyTable'] as const) },
    appointmentKey: { type: r.pick(['int', 'text'] as const), generate: r.pick(['max', 'keyTable'] as const) },
    start: r.pick(['date + text hour', 'date + hhmm', 'datetime'] as const),
    stateCodes: r.pick(['int', 'char'] as const),
    states,
    restrictedMoves: r.chance(0.5),
    onReschedule: r.pick(['initial', 'keep'] as const),
    professionalRequired: r.chance(0.5),
    insurance,
    clientIgnore: r.some(['email', 'cpf', 'birthday'].filter((f) => f !== 'email' || email === 'read-only row' || r.chance(0.3)), 0, 2),
    appointmentIgnore: insurance.startsWith('coverage') && r.chance(0.5) ? ['healthInsurance'] : r.chance(0.15) ? ['service'] : []
  }
}

/** One line naming the shape: the subtest's name, and how a failure is described. */
export function describeShape (s: Shape): string {
  return [
    `${s.country}${s.areaCode ? `/${s.areaCode}` : ''}`,
    `name=${s.name}`, `phones=${s.phones}/${s.phoneFormat}`, `email=${s.email}`, `birthday=${s.birthday}`, `cpf=${s.cpf}`,
    s.staff ? 'staff rows' : '',
    `client key=${s.clientKey.type}/${s.clientKey.generate}`, `appointment key=${s.appointmentKey.type}/${s.appointmentKey.generate}`,
    `start=${s.start}`, `state=${s.stateCodes} ${s.states.join('/')}${s.restrictedMoves ? ' restricted' : ''}${s.onReschedule === 'keep' ? ' keep' : ''}`,
    `professional ${s.professionalRequired ? 'required' : 'optional'}`, `insurance=${s.insurance}`,
    s.clientIgnore.length > 0 ? `client ignores ${s.clientIgnore.join(',')}` : '',
    s.appointmentIgnore.length > 0 ? `appointment ignores ${s.appointmentIgnore.join(',')}` : ''
  ].filter((x) => x !== '').join(' · ')
}

const CODES: Record<'int' | 'char', Record<string, string | number>> = {
  int: { WAITING: 0, CONFIRMED: 1, CANCELED: 2, MISSED: 3, DONE: 4 },
  char: { WAITING: 'A', CONFIRMED: 'C', CANCELED: 'X', MISSED: 'F', DONE: 'D' }
}

const sqlText = (v: string | number | null): string => v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`

export function randomInstallation (r: Random, dialect: TestDialect): Installation {
  const s = randomShape(r)
  const idType = (t: 'int' | 'text'): string => t === 'int' ? 'INTEGER' : 'VARCHAR(10)'
  const idValue = (t: 'int' | 'text', n: number): string | number => t === 'int' ? n : String(n)
  const datetime = dialect === 'postgres' ? 'TIMESTAMP' : 'DATETIME'
  const statements: string[] = []
  const insert = (table: string, row: Record<string, string | number | null>): void => {
    statements.push(`INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${Object.values(row).map(sqlText).join(', ')})`)
  }
  const owners: Record<string, string> = { pat: 'pid', prof: 'prid', svc: 'sid', ins: 'iid', appt: 'aid' }

  // Lookups.
  statements.push('CREATE TABLE prof (prid INTEGER PRIMARY KEY, pname VARCHAR(40) NOT NULL)')
  statements.push('CREATE TABLE svc (sid INTEGER PRIMARY KEY, sname VARCHAR(40) NOT NULL, mins INTEGER)')
  statements.push('CREATE TABLE ins (iid INTEGER PRIMARY KEY, title VARCHAR(40) NOT NULL)')
  const professionals = r.some([10, 11, 12], 2).map(String)
  const services = r.some([20, 21, 22], 2).map(String)
  const insurers = ['30', '31']
  professionals.forEach((id, i) => insert('prof', { prid: Number(id), pname: ['Dra. Ana Reis', 'Dr. Paulo Leite', 'Dr. Kim Park'][i] }))
  services.forEach((id, i) => insert('svc', { sid: Number(id), sname: ['Consulta', 'Limpeza', 'Retorno'][i], mins: r.pick([null, 20, 30, 45, 60]) }))
  insurers.forEach((id, i) => insert('ins', { iid: Number(id), title: ['Unimed', 'Acme Health'][i] }))

  // The client table.
  const pcols = [`pid ${idType(s.clientKey.type)} PRIMARY KEY`]
  if (s.name === 'column') pcols.push('nm VARCHAR(60) NOT NULL')
  if (s.name === 'template') pcols.push('fname VARCHAR(30) NOT NULL', 'lname VARCHAR(40)')
  if (s.name === 'coalesce') pcols.push('nick VARCHAR(40)', 'nm VARCHAR(60) NOT NULL')
  for (let i = 1; i <= s.phones; i++) pcols.push(`ph${i} VARCHAR(20)`)
  if (s.email === 'column') pcols.push('mail VARCHAR(60)')
  if (s.birthday !== 'none') pcols.push(`born ${s.birthday === 'date' ? 'DATE' : 'VARCHAR(10)'}`)
  if (s.cpf !== 'none') pcols.push('cpf VARCHAR(14)')
  if (s.staff) pcols.push('kind CHAR(1) NOT NULL')
  statements.push(`CREATE TABLE pat (${pcols.join(', ')})`)
  if (s.email === 'row' || s.email === 'read-only row') {
    statements.push(`CREATE TABLE pat_contact (pid ${idType(s.clientKey.type)} NOT NULL, kind VARCHAR(10) NOT NULL, val VARCHAR(60))`)
    owners.pat_contact = 'pid'
  }
  if (s.insurance.startsWith('coverage')) {
    statements.push(`CREATE TABLE cov (cid INTEGER PRIMARY KEY, pid ${idType(s.clientKey.type)} NOT NULL, iid INTEGER NOT NULL)`)
    owners.cov = 'pid'
  }
  const clientIds = r.some([1, 2, 3, 4, 5, 6, 7, 8, 9], 2, 5)
  const clients: string[] = []
  const seedNames = [['Ana', 'Lima'], ['Ben', 'Ito'], ['Clara', 'Nunes'], ['Davi', 'Rocha'], ['Eva', 'Souza']]
  clientIds.forEach((n, i) => {
    const [first, last] = seedNames[i]
    // A nickname shown over the name: a PATCH of the name would read back as the nickname.
    const nick = s.name === 'coalesce' && r.chance(0.4)
    const row: Record<string, string | number | null> = { pid: idValue(s.clientKey.type, n) }
    if (s.name === 'column') row.nm = `${first} ${last}`
    if (s.name === 'template') Object.assign(row, { fname: first, lname: last })
    if (s.name === 'coalesce') Object.assign(row, { nick: nick ? first.slice(0, 2) : null, nm: `${first} ${last}` })
    row.ph1 = s.country === 'US' ? `41523400${10 + n}` : s.country === 'PT' ? `9123450${10 + n}` : `1198765430${n}`
    if (s.phones >= 2) row.ph2 = r.chance(0.5) ? null : '+14152340199'
    if (s.email === 'column') row.mail = r.chance(0.5) ? `${first.toLowerCase()}@example.com` : null
    if (s.birthday !== 'none') row.born = s.birthday === 'dmy' ? `0${n}/02/1980` : `1980-02-0${n}`
    if (s.staff) row.kind = 'P'
    insert('pat', row)
    clients.push(String(n))
    if (s.email !== 'column' && s.email !== 'none' && r.chance(0.5)) insert('pat_contact', { pid: idValue(s.clientKey.type, n), kind: 'email', val: `${first.toLowerCase()}@example.org` })
    if (s.insurance.startsWith('coverage') && r.chance(0.6)) insert('cov', { cid: 100 + n, pid: idValue(s.clientKey.type, n), iid: Number(r.pick(insurers)) })
  })
  // A staff member with a patient's key shape, which no write may touch.
  if (s.staff) {
    const row: Record<string, string | number | null> = { pid: idValue(s.clientKey.type, Math.max(...clientIds) + 1), kind: 'S' }
    if (s.name === 'column' || s.name === 'coalesce') row.nm = 'Staff Member'
    if (s.name === 'template') Object.assign(row, { fname: 'Staff', lname: 'Member' })
    insert('pat', row)
  }

  // The appointment table.
  const stateType = s.stateCodes === 'int' ? 'INTEGER' : 'CHAR(1)'
  const acols = [`aid ${idType(s.appointmentKey.type)} PRIMARY KEY`, `pid ${idType(s.clientKey.type)} NOT NULL`,
    `prid INTEGER${s.professionalRequired ? ' NOT NULL' : ''}`, 'sid INTEGER']
  if (s.insurance === 'column') acols.push('iid INTEGER')
  if (s.start === 'datetime') acols.push(`astart ${datetime} NOT NULL`)
  else acols.push('adate DATE NOT NULL', `atime ${s.start === 'date + hhmm' ? 'INTEGER' : 'VARCHAR(5)'} NOT NULL`)
  acols.push(`st ${stateType} NOT NULL`)
  statements.push(`CREATE TABLE appt (${acols.join(', ')})`)
  const appointmentIds = r.some([1, 2, 3, 4, 5, 6, 7, 8, 9], 2, 5)
  appointmentIds.forEach((n, i) => {
    const day = DAYS[i % DAYS.length]
    const hour = `${String(8 + i).padStart(2, '0')}:00`
    const row: Record<string, string | number | null> = {
      aid: idValue(s.appointmentKey.type, n),
      pid: idValue(s.clientKey.type, Number(clients[i % clients.length])),
      prid: Number(r.pick(professionals)),
      sid: r.chance(0.5) ? Number(r.pick(services)) : null
    }
    if (s.insurance === 'column') row.iid = r.chance(0.5) ? Number(r.pick(insurers)) : null
    if (s.start === 'datetime') row.astart = `${day} ${hour}:00`
    else Object.assign(row, { adate: day, atime: s.start === 'date + hhmm' ? Number(hour.replace(':', '')) : hour })
    row.st = CODES[s.stateCodes][r.pick(s.states)]
    insert('appt', row)
  })

  if (s.clientKey.generate === 'keyTable' || s.appointmentKey.generate === 'keyTable') {
    statements.push('CREATE TABLE key_seq (tname VARCHAR(20) PRIMARY KEY, ultimo INTEGER NOT NULL)')
    owners.key_seq = 'tname'
    if (s.clientKey.generate === 'keyTable') insert('key_seq', { tname: 'pat', ultimo: Math.max(...clientIds) + (s.staff ? 1 : 0) + r.int(0, 3) })
    if (s.appointmentKey.generate === 'keyTable') insert('key_seq', { tname: 'appt', ultimo: Math.max(...appointmentIds) + r.int(0, 3) })
  }

  return {
    shape: s,
    schema: statements.map((x) => `${x};`).join('\n'),
    mapping: mappingOf(s),
    seeded: { clients, appointments: appointmentIds.map(String), professionals, services, insurers },
    owners
  }
}

export const TIMEZONES: Record<Country, string> = { BR: 'America/Sao_Paulo', US: 'America/New_York', PT: 'Europe/Lisbon' }

function keyOf (column: string, type: 'int' | 'text'): string {
  return type === 'int' ? column : `{ column: ${column}, type: text }`
}

function keyGeneration (k: Shape['clientKey'], table: string): string {
  return k.generate === 'max' ? '{ generate: max }' : `{ generate: keyTable, table: key_seq, nameColumn: tname, name: ${table}, valueColumn: ultimo }`
}

function mappingOf (s: Shape): string {
  const codes = CODES[s.stateCodes]
  const code = (state: string): string => s.stateCodes === 'int' ? String(codes[state]) : `'${codes[state]}'`
  const moves = s.restrictedMoves
    ? `\n  moves: { WAITING: [CONFIRMED, CANCELED], CONFIRMED: [WAITING, CANCELED${s.states.slice(3).map((x) => `, ${x}`).join('')}] }`
    : ''
  const start = s.start === 'datetime'
    ? '      datetime: { column: astart, format: datetime }'
    : `      date: { column: adate, format: date }\n      hour: { column: atime, format: ${s.start === 'date + hhmm' ? 'hhmm' : 'text'} }`
  const insuranceRef = s.insurance === 'column' ? '\n      healthInsurance: iid' : s.insurance.startsWith('coverage') ? '\n      healthInsurance: cov.iid' : ''
  const name = s.name === 'column' ? 'nm' : s.name === 'template' ? "{ template: '{fname} {lname}' }" : '{ coalesce: [nick, nm] }'
  const fields = [`      name: ${name}`]
  if (s.email === 'column') fields.push('      email: mail')
  if (s.email === 'row' || s.email === 'read-only row') fields.push('      email: contact.val')
  if (s.birthday !== 'none') fields.push(`      birthday: { column: born, format: ${s.birthday} }`)
  if (s.cpf !== 'none') fields.push('      cpf: cpf')
  const clientWrite = [
    `      key: ${keyGeneration(s.clientKey, 'pat')}`,
    `      phoneFormat: ${s.phoneFormat}`,
    s.cpf !== 'none' ? `      cpfFormat: ${s.cpf}` : '',
    s.staff ? "      set: { kind: { value: 'P' } }" : '',
    s.email === 'row' ? '      after:\n        - { join: contact, set: { kind: { value: email } } }' : '',
    s.clientIgnore.length > 0 ? `      ignore: [${s.clientIgnore.join(', ')}]` : ''
  ].filter((x) => x !== '').join('\n')
  return `version: 1
installation: property
timezone: ${TIMEZONES[s.country]}
phone: { defaultCountry: ${s.country}${s.areaCode ? `, defaultAreaCode: '${s.areaCode}'` : ''} }
search: [phone, name]
states:
  values: [${s.states.join(', ')}]${moves}${s.onReschedule === 'keep' ? '\n  onReschedule: keep' : ''}
resources:
  appointment:
    table: appt
    key: ${keyOf('aid', s.appointmentKey.type)}${s.insurance.startsWith('coverage') ? '\n    joins:\n      cov: { table: cov, on: { pid: pid } }' : ''}
    start:
${start}
    state:
      column: st${s.stateCodes === 'int' ? '\n      type: int' : ''}
      map: { ${s.states.map((x) => `${code(x)}: ${x}`).join(', ')} }
    refs:
      client: ${keyOf('pid', s.clientKey.type)}
      professional: prid
      service: sid${insuranceRef}
    write:
      key: ${keyGeneration(s.appointmentKey, 'appt')}
      states:
${s.states.map((x) => `        ${x}: { st: { value: ${code(x)} } }`).join('\n')}${s.insurance === 'coverage firstOf' ? '\n      refs:\n        healthInsurance: { firstOf: cov }' : ''}${s.appointmentIgnore.length > 0 ? `\n      ignore: [${s.appointmentIgnore.join(', ')}]` : ''}
  client:
    table: pat
    key: ${keyOf('pid', s.clientKey.type)}${s.staff ? "\n    where: { column: kind, eq: 'P' }" : ''}${s.email === 'row' || s.email === 'read-only row' ? '\n    joins:\n      contact: { table: pat_contact, on: { pid: pid }, where: { column: kind, eq: email } }' : ''}
    fields:
${fields.join('\n')}
    phones: [${Array.from({ length: s.phones }, (_, i) => `ph${i + 1}`).join(', ')}]
    write:
${clientWrite}
  professional:
    table: prof
    key: prid
    fields: { name: pname }
  service:
    table: svc
    key: sid
    fields: { name: sname, duration: mins }
  healthInsurance:
    table: ins
    key: iid
    fields: { name: title }
`
}
