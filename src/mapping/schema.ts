// The mapping language, version 1: the one definition from which the loader validates,
// TypeScript takes its types and `mapping.schema.json` (for clinic IT's editors) is generated.
// Keep it declarative: anything the compiler cannot turn into a parameterised statement
// does not belong here (the `sql` escape hatch is read-only and per dialect).
import Type, { type Static, type TOptional, type TSchema, type TString } from 'typebox'
import { DATABASES, DIALECT_NAMES, type DialectName } from '../sql/databases.js'

const Identifier = '[A-Za-z_#@][A-Za-z0-9_$#@ ]*'

export const ColumnName = Type.String({
  pattern: `^${Identifier}(\\.${Identifier})?$`,
  description: 'A column of the resource table (`NOME`) or of one of its joins (`sala.ID_UNIDADE`).'
})

export const TableName = Type.String({
  pattern: `^${Identifier}(\\.${Identifier}){0,2}$`,
  description: 'A table, optionally schema-qualified (`dbo.AGENDA`).'
})

export const Literal = Type.Union([Type.String(), Type.Number(), Type.Boolean()])

/** `schema` with what it means at this place (an editor's hover text there); the shared definition says what it is. */
function about<T extends TSchema> (schema: T, description: string, examples?: unknown[]): T {
  return { ...schema, description, ...(examples ? { examples } : {}) }
}

const Minutes = Type.Union([Type.Literal('minutes'), Type.Literal('seconds'), Type.Literal('hours')])

export const SqlType = Type.Union([
  Type.Literal('int'), Type.Literal('bigint'), Type.Literal('smallint'),
  Type.Literal('text'), Type.Literal('ntext'), Type.Literal('char'), Type.Literal('nchar'),
  Type.Literal('decimal'), Type.Literal('date'), Type.Literal('datetime'), Type.Literal('time'), Type.Literal('bit')
], { description: 'The column\'s real type, so parameters bind without conversions (text = VARCHAR, ntext = NVARCHAR on SQL Server).' })

export const ConditionLeaf = Type.Object({
  column: ColumnName,
  eq: Type.Optional(about(Literal, 'Holds when the column equals this (text without trailing spaces, in any case; a number as a number): `eq: \'S\'` for a char flag, `eq: 1` for an int one.', ['S', 1])),
  ne: Type.Optional(about(Literal, 'Holds when the column differs from this, or is NULL (a soft-delete flag `ne: \'S\'` keeps rows never flagged).', ['S'])),
  in: Type.Optional(Type.Array(Literal, { minItems: 1, description: 'Holds when the column equals one of these.', examples: [['A', 'C']] })),
  notIn: Type.Optional(Type.Array(Literal, { minItems: 1, description: 'Holds when the column equals none of these, or is NULL.', examples: [['X', 'D']] })),
  isNull: Type.Optional(Type.Boolean({ description: 'true: the column is NULL; false: it holds a value (`DT_EXCLUSAO` with `isNull: true`: not deleted).' })),
  blank: Type.Optional(Type.Boolean({ description: 'true: NULL or only spaces; false: holds something.' }))
}, { additionalProperties: false, title: 'ConditionLeaf' })

export const Condition = Type.Union([
  ConditionLeaf,
  Type.Object({ all: Type.Array(ConditionLeaf, { minItems: 1, description: 'Holds when every one of these holds.' }) }, { additionalProperties: false }),
  Type.Object({ any: Type.Array(ConditionLeaf, { minItems: 1, description: 'Holds when at least one of these holds.' }) }, { additionalProperties: false })
], { title: 'Condition', description: 'A test on a column of the row: `{ column, eq | ne | in | notIn | isNull | blank }`, or `all`/`any` of several.' })

export const Where = Type.Union([Condition, Type.Array(Condition)], {
  title: 'Where',
  description: 'Rows that exist for the interface. A list means all of them.'
})

export const Join = Type.Object({
  table: about(TableName, 'The table joined (a left join: rows without a match still read); its columns are then `alias.COLUMN` wherever a column is named.', ['dbo.SALA']),
  from: Type.Optional(Type.String({ description: 'The alias this join hangs from (default: the resource table).' })),
  on: Type.Record(Type.String(), Type.String(), {
    description: 'Columns of `from` → columns of this table, compared for equality.'
  }),
  where: Type.Optional(about(Where, 'Only rows of the joined table that meet this are joined (a row that has none gets NULLs).')),
  first: Type.Optional(Type.Object({
    key: Type.String({ description: 'A column of the joined table unique per row (its key).' }),
    by: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Object({
      column: Type.String({ description: 'A column of the joined table.' }),
      desc: Type.Optional(Type.Boolean({ description: 'true: the largest value first (the latest date). Default false.' }))
    }, { additionalProperties: false })]), { description: 'Order deciding which row is first (the key breaks ties).', examples: [[{ column: 'updated_at', desc: true }]] }))
  }, {
    additionalProperties: false,
    description: 'Of the rows matching `on` and `where`, join only the first by `by` (a person\'s preferred name): the parent row is never repeated.'
  }))
}, { additionalProperties: false, title: 'Join', description: 'A left join from the resource table (or another join) to a table that holds more of its data; its columns are read as `alias.COLUMN`.' })

// Values compose: wherever a value is allowed (a coalesce item, a rule's outcome, the ends of
// `minutes`) any value is, by reference to the one definition below. The model bounds how
// deep they nest (model.ts MAX_VALUE_DEPTH).
const NestedValue = Type.Ref('Value')

export const Rule = Type.Object({
  when: Type.Optional(about(Condition, 'When this rule applies; without it, always (a last rule as the fallback).')),
  value: Type.Optional(about(Literal, 'The outcome: this constant (a state such as `CANCELED`).', ['CANCELED'])),
  column: Type.Optional(about(ColumnName, 'The outcome: this column\'s value (`ID_HIGIENISTA` on hygiene visits).')),
  template: Type.Optional(Type.String({ description: 'The outcome as text from columns, as a value\'s `template`.' })),
  coalesce: Type.Optional(Type.Array(NestedValue, { minItems: 1, description: 'The outcome: the first non-blank of these columns or values.' })),
  then: Type.Optional(about(NestedValue, 'The outcome: any value (a template, a coalesce, more rules…).'))
}, { additionalProperties: false, description: 'First rule whose `when` holds wins; a rule without `when` always holds. Its outcome is one of value, column, template, coalesce, or `then`: any value (a template, a coalesce, more rules…).' })

export const ValueFormat = Type.Union([
  Type.Literal('date'), Type.Literal('datetime'), Type.Literal('text'), Type.Literal('int'), Type.Literal('dmy'),
  Type.Literal('time'), Type.Literal('hhmm'), Type.Literal('minutes')
], { description: 'How a date or hour is stored: date/datetime/time columns, `text` (\'HH:MM\', \'YYYY-MM-DD\'), `dmy` text (\'DD/MM/YYYY\'), `int` (20260315), `hhmm` (1330) or `minutes` since midnight.' })

// One key per database of sql/databases.ts: a misspelt one is refused, not silently unused.
const SqlPerDialect = Type.Object({
  ...Object.fromEntries(DIALECT_NAMES.map((name) => [name, Type.Optional(Type.String({ description: `On ${DATABASES[name].label}.` }))])) as Record<DialectName, TOptional<TString>>,
  default: Type.Optional(Type.String({ description: 'On a database without its own key.' }))
}, {
  additionalProperties: false,
  description: `Read-only escape hatch: a SQL expression per dialect (${DIALECT_NAMES.join(', ')}) over the resource's aliases.`
})

export const ValueObject = Type.Object({
  column: Type.Optional(about(ColumnName, 'The column holding the value (with converters beside it: `{ column: DT_NASC, format: date }`).', ['NOME', 'sala.ID_UNIDADE'])),
  coalesce: Type.Optional(Type.Array(NestedValue, {
    minItems: 1,
    description: 'First non-blank of these columns or values (`[{ template: \'{name.given_name} {name.family_name}\' }, provider_name]`). Writes go to the last item when it is a column of the table.'
  })),
  template: Type.Optional(Type.String({ description: 'Text from columns: `{RUA}, {NUMERO} - {BAIRRO}`. Separators next to a blank part are dropped.' })),
  rules: Type.Optional(Type.Array(Rule, { minItems: 1, description: 'Ordered rules over several columns: the first whose `when` holds gives the value (a state from a status code and a confirmation flag).' })),
  sql: Type.Optional(SqlPerDialect),
  value: Type.Optional(about(Literal, 'A constant: every row has this value (a service name the schema does not hold).', ['Consulta'])),
  minutes: Type.Optional(Type.Object({
    from: about(NestedValue, 'The earlier date-time (a slot\'s start).'),
    to: about(NestedValue, 'The later date-time (a slot\'s end).')
  }, { additionalProperties: false, description: 'Minutes between two date-times, each a column or any value (a slot\'s length from its start and end).' })),
  collect: Type.Optional(Type.Object({
    table: TableName,
    on: Type.Record(Type.String(), Type.String(), { description: 'Columns of the resource (`COL` or `alias.COL`) → columns of `table`, compared for equality.' }),
    where: Type.Optional(about(Where, 'Only rows of `table` that meet this (`{ column: kind, eq: PHONE }`).')),
    column: Type.String({ description: 'The column of `table` holding each value.' }),
    by: Type.Optional(Type.Array(Type.String(), { description: 'Columns of `table` ordering the values (the first is the preferred one).' }))
  }, {
    additionalProperties: false,
    description: 'Read-only: every value of `column` in the rows of a child table (phones kept as attribute rows), in the same statement; blank and repeated values are dropped. Values are listed with `|` between them, so a value holding `|` reads as two.'
  })),
  nullIf: Type.Optional(Type.Array(Literal, { description: 'Stored values that mean "none" (\'\', \'0000-00-00\', 0, -1).' })),
  map: Type.Optional(Type.Record(Type.String(), Literal, { description: 'Stored value → interface value (used both ways for writes).' })),
  trueValues: Type.Optional(Type.Array(Literal, {
    description: 'A yes/no field (`enabled`): the stored values that read as yes; any other stored value reads as no; NULL leaves the default (a lookup stays enabled). Compared as trimmed text in any case. Default: 1, \'S\', \'Y\', \'YES\', \'SIM\', \'T\', \'TRUE\', \'V\'.',
    examples: [['S'], [1], ['A', 'ATIVO']]
  })),
  // YAML (and so the YAML language server) reads a key `true:` as the boolean true, so
  // editors flag it: kept for mappings written before `trueValues`.
  true: Type.Optional(Type.Array(Literal, { description: 'The old spelling of `trueValues`, still read. Prefer `trueValues`: editors read the key `true` as a boolean and flag it.', deprecated: true })),
  invert: Type.Optional(Type.Boolean({ description: 'The column says the opposite (INATIVO, IsHidden).' })),
  format: Type.Optional(ValueFormat),
  unit: Type.Optional(about(Minutes, 'The unit a duration is stored in. Default: minutes.')),
  divide: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'Stored number / divide (prices in cents: 100).' })),
  type: Type.Optional(about(SqlType, 'The column\'s SQL type, so ids and filters bind without conversions (text = VARCHAR, ntext = NVARCHAR on SQL Server). Default: int for keys and refs, text otherwise.', ['text'])),
  length: Type.Optional(Type.Integer({
    minimum: 1,
    description: 'Declared length of the text column(s) written (VARCHAR(100) → 100): longer input is a 400. Default: the length the database declares.'
  }))
}, { additionalProperties: false })

const ValueUnion = Type.Union([ColumnName, ValueObject], {
  title: 'Value',
  description: 'A column name, or an object with exactly one of column, coalesce, template, rules, sql, value, minutes, collect; coalesce items, rule outcomes and the ends of `minutes` are values themselves.'
})

/** The definitions a nested value's `$ref` names (for whoever walks the schema by path). */
export const VALUE_DEFS = { Value: ValueUnion }

export const Value = Type.Cyclic(VALUE_DEFS, 'Value')

const KeyPart = Type.Union([ColumnName, Type.Object({
  column: about(ColumnName, 'The key column.'),
  type: Type.Optional(about(SqlType, 'Its SQL type (default int): `text` for keys such as `CLN-01`.'))
}, { additionalProperties: false })])

export const Key = Type.Union([KeyPart, Type.Array(KeyPart, { minItems: 2, description: 'A key of several columns: its id is their values joined by `idSeparator`.' })], {
  description: 'The key column (type int unless given), or a list of them.'
})

// Write side (implemented by the booking issue; part of v1 so the format does not break later).
export const WriteValue = Type.Union([
  Type.Object({ value: Type.Union([Literal, Type.Null()], { description: 'A constant written as it is (null writes NULL): `ORIGEM: { value: ponte }`.' }) }, { additionalProperties: false }),
  Type.Object({ now: Type.Union([Type.Literal('datetime'), Type.Literal('date'), Type.Literal('time')], { description: 'The clinic\'s current date-time, date or time when the row is written (a "created at" column).' }) }, { additionalProperties: false }),
  Type.Object({ setting: Type.String({ description: 'A value from the installation settings, e.g. `userId`.' }) }, { additionalProperties: false }),
  Type.Object({
    slot: Type.Union([Type.Literal('start'), Type.Literal('end'), Type.Literal('length')], { description: 'Which part of the booked slot: its start, its end or its length.' }),
    format: Type.Optional(about(ValueFormat, 'How `start`/`end` are stored. Default: datetime.')),
    unit: Type.Optional(about(Minutes, 'The unit `length` is stored in. Default: minutes.')),
    repeat: Type.Optional(Type.String({ minLength: 1, description: 'length as a pattern: this text once per `per` minutes (`X`, 45 min → `XXXXXXXXX`).' })),
    per: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, description: 'Minutes each `repeat` stands for (default 5).' })),
    edges: Type.Optional(Type.String({ minLength: 1, description: 'Characters at both ends of a `repeat` pattern, each also standing for `per` minutes (`//`: 30 min → `//XX//`).' }))
  }, {
    additionalProperties: false,
    description: 'From the booked slot: `start`/`end` in `format` (datetime by default; `text`, `time`, `hhmm`, `minutes` give the hour; `date`, `int`, `dmy` the date), `length` in `unit` (minutes by default) or as a `repeat` pattern.'
  }),
  Type.Object({ newKey: Type.Literal(true, { description: 'The key of the row being inserted (a patient who is their own guarantor).' }) }, { additionalProperties: false }),
  Type.Object({ uuid: Type.Literal(true, { description: 'A new random UUID (version 4) for each row written.' }) }, { additionalProperties: false }),
  Type.Object({
    identifier: about(Type.Object({
      check: Type.Literal('luhn', { description: 'Luhn mod N over `characters` (N = their number): mod 10 with digits, OpenMRS\'s mod 30 with `0123456789ACDEFGHJKLMNPRTUVWXY`.' }),
      characters: Type.Optional(Type.String({ minLength: 2, description: 'The alphabet, in value order (default 0123456789).' })),
      prefix: Type.Optional(Type.String({ description: 'Text before the number (not part of the check).' })),
      digits: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'The number left-padded with zeros to this many digits.' }))
    }, { additionalProperties: false }), 'How the identifier is made: the check, its alphabet, a prefix and the digits.', [{ check: 'luhn', prefix: 'P', digits: 6 }])
  }, { additionalProperties: false, description: 'An identifier made from the new record\'s key followed by its check character.' }),
  Type.Object({ state: Type.Literal(true, { description: 'The new state as stored (through the state\'s `map`).' }) }, { additionalProperties: false })
], { title: 'WriteValue', description: 'What a write puts in a column Ponte fills on its own: a constant, now, a setting, part of the booked slot, the new key, a UUID, an identifier with a check character, or the new state.' })

// One description for `generate` in every form: an editor shows it whichever form is typed.
const GENERATE = 'How the key is made: `identity`, the database makes it (IDENTITY, AUTO_INCREMENT, SERIAL) and Ponte reads it back; `max`, the largest key plus one, under a lock in the insert\'s transaction (what many legacy programs do); `sequence`, the next value of a database sequence; `keyTable`, a counter row in a table of counters, read and advanced in the insert\'s transaction.'

export const KeyGeneration = Type.Union([
  Type.Object({ generate: Type.Literal('identity', { description: GENERATE }) }, { additionalProperties: false }),
  Type.Object({ generate: Type.Literal('max', { description: GENERATE }) }, { additionalProperties: false }),
  Type.Object({
    generate: Type.Literal('sequence', { description: GENERATE }),
    sequence: Type.String({ description: 'The sequence\'s name, optionally schema-qualified.', examples: ['dbo.SEQ_PACIENTE'] })
  }, { additionalProperties: false }),
  Type.Object({
    generate: Type.Literal('keyTable', { description: GENERATE }),
    table: about(TableName, 'The table of counters.', ['dbo.CONTADOR']),
    nameColumn: Type.String({ description: 'The column naming each counter.' }),
    name: Type.String({ description: 'The name of this resource\'s counter in `nameColumn`.', examples: ['PACIENTE'] }),
    valueColumn: Type.String({ description: 'The column holding the counter\'s last value.' })
  }, { additionalProperties: false })
], { description: 'How a new row\'s key is made: `identity`, `max`, a `sequence`, or a `keyTable` counter. Without it, the key is the database\'s (identity).' })

export const ExtraRow = Type.Object({
  join: Type.Optional(Type.String({ description: 'A join of the resource: a row of its table is inserted, the columns of its `on` shared with the row it hangs from.' })),
  phones: Type.Optional(Type.Integer({ minimum: 0, description: 'An entry of `phones` that collects from a child table: a row holding the phone is inserted there.' })),
  key: Type.Optional(about(KeyGeneration, 'How this row\'s key is made (as the resource\'s `write.key`).')),
  set: Type.Optional(Type.Record(Type.String(), WriteValue, { description: 'Other columns of the row.' }))
}, { additionalProperties: false, title: 'ExtraRow', description: 'One more row written with the resource\'s, in the same transaction: give `join` or `phones`. A `before` row\'s `key` makes the key its join\'s `on` shares (a person\'s id, which the patient row takes as its own).' })

export const StatusHistory = Type.Object({
  table: about(TableName, 'The status-history table.'),
  key: Type.String({ description: 'The column holding the appointment\'s key.' }),
  current: about(Where, 'Which of an appointment\'s history rows is the current one (`{ column: DT_FIM, isNull: true }`).'),
  open: Type.Record(Type.String(), WriteValue, { description: 'Columns of the row opened for the new state (on booking too).' }),
  close: Type.Record(Type.String(), WriteValue, { description: 'Columns set on the current row(s) when the state changes.' })
}, { additionalProperties: false, title: 'StatusHistory', description: 'A status-history table: each state change closes the current row and opens a new one, in the same transaction.' })

/** Request fields a mapping may declare as accepted but not stored (`write.ignore`). */
export const IGNORABLE = ['phone', 'email', 'cpf', 'birthday', 'healthInsurance', 'location', 'professional', 'service', 'plan'] as const

export const WriteSpec = Type.Object({
  key: Type.Optional(about(KeyGeneration, 'How a new row\'s key is made. Default: the database makes it (identity).', [{ generate: 'max' }])),
  set: Type.Optional(Type.Record(Type.String(), WriteValue, { description: 'Columns an insert fills besides the mapped fields.' })),
  phoneFormat: Type.Optional(Type.Union([Type.Literal('e164'), Type.Literal('digits'), Type.Literal('national'), Type.Literal('masked')], {
    description: 'How a phone is stored when written: `e164` (+5511987654321), `digits` (11987654321), `national` (11 98765-4321) or `masked` ((11) 98765-4321); a number of another country is kept in E.164. Default: digits.'
  })),
  cpfFormat: Type.Optional(Type.Union([Type.Literal('digits'), Type.Literal('masked')], { description: 'How a CPF is stored when written: `digits` (12345678909) or `masked` (123.456.789-09). Default: digits.' })),
  states: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), WriteValue), {
    description: 'Columns written to put an appointment in each interface state.'
  })),
  reschedule: Type.Optional(Type.Record(Type.String(), WriteValue, { description: 'Extra columns written on a reschedule.' })),
  slot: Type.Optional(Type.Object({
    join: Type.String({ description: 'The appointment\'s join whose row is the booked time slot (its start, and the refs read through it, come from there).' }),
    capacity: Type.Optional(Type.Union([
      Type.Integer({ minimum: 1, maximum: 1000 }),
      Type.Object({
        column: about(ColumnName, 'The column holding each slot\'s capacity.')
      }, { additionalProperties: false, description: 'A column of the slot (`slot.max_patients`) or of a join below it (`block.max_patients`); NULL counts as 1, 0 closes the slot.' })
    ], {
      description: 'How many appointments one slot takes (default 1): /availability offers it while fewer hold it (by the same rule as a taken slot), booking refuses it (409) once full. A number for every slot, or `{ column }` per slot.'
    })),
    services: Type.Optional(Type.Object({
      table: Type.Optional(about(TableName, 'A table with one row per service a slot (or its block) accepts.')),
      on: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'With `table`: columns of the slot or a join below it (`block.ID`) → columns of `table`.' })),
      where: Type.Optional(about(Where, 'Only the rows of `table` that meet this count.')),
      column: Type.String({ description: 'The column holding a service id: of `table` (one row per accepted service), or without `table` a column of the slot or a join below it (`block.service_id`).' })
    }, {
      additionalProperties: false,
      description: 'The services a slot\'s block accepts: /availability?service= offers only slots accepting it, and booking (or rescheduling) one with a service it does not accept is refused (409). A block with no such row (or a NULL column) accepts none.'
    }))
  }, {
    additionalProperties: false,
    description: 'Slot-based booking: the appointment row points at a time slot. Booking finds the slot by its start and the professional and location read through it, and writes only the pointer; rescheduling finds another slot.'
  })),
  before: Type.Optional(Type.Array(ExtraRow, { description: 'Rows inserted before the resource\'s own, in order (a person before the patient).' })),
  after: Type.Optional(Type.Array(ExtraRow, { description: 'Rows inserted after it, in order (names, identifiers, phone attributes).' })),
  history: Type.Optional(StatusHistory),
  ignore: Type.Optional(Type.Array(Type.Union(IGNORABLE.map((f) => Type.Literal(f))), {
    uniqueItems: true,
    description: 'Request fields this installation accepts without storing them (POST /clients: phone, email, cpf, birthday, healthInsurance, location; POST /appointments: professional, service, location, healthInsurance, plan). The answer names them in its `Ponte-Ignored-Fields` header. Without this, a field the mapping reads but cannot write is refused with 501 naming it, on POST as on PATCH; a field the mapping does not map at all is always ignored (and named in the header).'
  })),
  refs: Type.Optional(Type.Object(Object.fromEntries(['professional', 'service', 'location', 'healthInsurance', 'plan'].map((r) => [r, Type.Optional(Type.Object({
    firstOf: Type.String({ description: 'The appointment\'s join (under `joins`, hanging from the appointment row by one column) whose row the booking points at: the first (lowest `on` column) of its rows holding the id sent. E.g. `location: sala.ID_UNIDADE` with `firstOf: sala` books unit 3 into the unit\'s first room.' })
  }, { additionalProperties: false, description: `How a booking writes its ${r} when the appointment reads it through a join.` }))])), {
    additionalProperties: false,
    description: 'How to write an appointment ref that is read through a join (`location: sala.ID_UNIDADE`). Without an entry such a ref is read-only: booking with it is refused (501), unless it is listed under `ignore`. Never valid when the join\'s column is also where another field is written (the patient\'s id, the slot).'
  })),
  triggers: Type.Optional(Type.Boolean({ description: 'The table has triggers. Documentation only: Ponte always inserts with OUTPUT … INTO, which SQL Server accepts on tables with triggers.' }))
}, { additionalProperties: false, title: 'WriteSpec', description: 'How Ponte writes this resource (POST, PATCH): the key, the columns it fills besides the mapped fields, stored formats, extra rows. Without `write`, writes to it answer 501.' })

const Joins = Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), Join, {
  description: 'Tables joined to this one by alias (LEFT JOINs); their columns are `alias.COLUMN` everywhere else.',
  examples: [{ sala: { table: 'dbo.SALA', on: { ID_SALA: 'ID_SALA' } } }]
})

const Table = {
  table: about(TableName, 'The table holding one row per record of this resource.', ['dbo.AGENDA']),
  key: Key,
  where: Type.Optional(about(Where, 'Rows of the table that are records of this resource (soft deletes, staff sharing the patients\' table); every read and write keeps to them. Default: every row.', [{ column: 'EXCLUIDO', ne: 'S' }])),
  joins: Type.Optional(Joins)
}

/** Interface fields and what each means, each read from a value. */
const Fields = (fields: Record<string, string>) => Type.Object(
  Object.fromEntries(Object.entries(fields).map(([n, d]) => [n, Type.Optional(about(Value, d))])),
  { additionalProperties: false, description: 'Where each field of the interface is read from (and written to, for clients): a column or any value. A field left out is absent from the answers.' })

export const RefName = Type.Union([
  Type.Literal('client'), Type.Literal('professional'), Type.Literal('location'), Type.Literal('service'),
  Type.Literal('healthInsurance'), Type.Literal('specialty'), Type.Literal('plan')
])

export const Appointment = Type.Object({
  ...Table,
  start: Type.Object({
    datetime: Type.Optional(about(Value, 'The start as one date-time (a datetime column, or `format: text` for \'YYYY-MM-DD HH:MM\').', [{ column: 'starts_at', format: 'datetime' }])),
    date: Type.Optional(about(Value, 'The day, when the hour is kept apart.', [{ column: 'DATA', format: 'date' }])),
    hour: Type.Optional(about(Value, 'The hour of the day, with `date`.', [{ column: 'HORA', format: 'text' }]))
  }, { additionalProperties: false, description: 'When the appointment starts, on the clinic\'s wall clock: either `datetime`, or `date` and `hour`.' }),
  end: Type.Optional(Type.Object({
    datetime: Type.Optional(about(Value, 'The end as a date-time.')),
    hour: Type.Optional(about(Value, 'The end as an hour of the start\'s day.')),
    duration: Type.Optional(about(Value, 'The length (with `unit`, minutes by default).', [{ column: 'DURACAO', unit: 'minutes', nullIf: [0] }]))
  }, { additionalProperties: false, description: 'When the appointment ends: one of `datetime`, `hour`, or `duration` (with `unit`). Without it, appointments are answered without an end hour.' })),
  state: about(Value, 'The appointment\'s state in the interface\'s words (WAITING, CONFIRMED, CANCELED, MISSED, DONE, or `states.values`): usually a `map` of stored codes or `rules`.', [{ column: 'SITUACAO', map: { A: 'WAITING', C: 'CONFIRMED', X: 'CANCELED' } }]),
  slotHolding: Type.Optional(Type.Union([Condition, Type.Array(Condition)], {
    description: 'Rows of the table that hold a slot without being an appointment (a blocked row with no patient, a lunch, a meeting): never listed, never offered, whatever their state. A list means all of them.'
  })),
  classification: Type.Optional(about(Value, 'A label for the kind of appointment (first visit, return), answered as `classification`.')),
  refs: Type.Optional(Type.Object({
    client: Type.Optional(about(Value, 'The patient\'s id (a key of `resources.client`).', ['ID_PACIENTE'])),
    professional: Type.Optional(about(Value, 'The professional\'s id.', ['ID_PROFISSIONAL'])),
    location: Type.Optional(about(Value, 'The location\'s id, often through a join (a room\'s unit).', ['sala.ID_UNIDADE'])),
    service: Type.Optional(about(Value, 'The service\'s (procedure\'s) id.')),
    healthInsurance: Type.Optional(about(Value, 'The health insurance\'s id.')),
    specialty: Type.Optional(about(Value, 'The specialty\'s id.')),
    plan: Type.Optional(about(Value, 'The health plan\'s id (within the insurance).'))
  }, { additionalProperties: false, description: 'Where the ids of related records are held.' })),
  write: Type.Optional(about(WriteSpec, 'How bookings, state changes and reschedules are written. Without it, they answer 501.'))
}, { additionalProperties: false, description: 'The appointments (the schedule): where they are, when each starts and ends, its state and who and what it involves.' })

export const Client = Type.Object({
  ...Table,
  fields: Fields({
    name: 'The patient\'s name (a social name first: `{ coalesce: [NOME_SOCIAL, NOME] }`). Required to register clients.',
    description: 'Notes about the patient.',
    cpf: 'The CPF, stored masked or bare: read as 11 digits, written in `write.cpfFormat`.',
    email: 'The e-mail address.',
    birthday: 'The date of birth (`format` as stored; sentinels such as 1900-01-01 under `nullIf`).',
    image: 'A picture\'s URL.',
    externalId: 'The id another system knows the patient by (a chart number).'
  }),
  phones: Type.Optional(Type.Array(Value, { description: 'Phone columns in order of preference: the first readable one is `phone`, all of them `allPhones`.', examples: [['CELULAR', 'FONE_RES']] })),
  write: Type.Optional(about(WriteSpec, 'How POST /clients and PATCH /clients/{id} are written. Without it, they answer 501.'))
}, { additionalProperties: false, description: 'The patients: the table, and where their name, CPF, phones… are.' })

const Lookup = (what: string, fields: Record<string, string>) => Type.Object({
  ...Table,
  fields: Fields(fields),
  // A disabled one is not offered for new bookings, and is still shown on the past appointments that name it.
  enabled: Type.Optional(about(Value, `Whether the ${what} takes new bookings (a yes/no column: \`trueValues\`, \`invert\`). A disabled one is not offered for new bookings and is still shown on past appointments. Default: enabled.`, [{ column: 'INATIVO', trueValues: ['S'], invert: true }]))
}, { additionalProperties: false, description: `The ${what}s: a lookup the interface lists and filters.` })

export const Professional = Lookup('professional', {
  name: 'The professional\'s name. Required.',
  description: 'A presentation of the professional.',
  image: 'A picture\'s URL.',
  expertise: 'What the professional does (an area of practice).',
  register: 'The professional register (council, number and state: `{ template: \'{CONSELHO} {NR_CONSELHO}/{UF_CONSELHO}\' }`).'
})
export const Location = Lookup('location', {
  name: 'The location\'s name.',
  address: 'The street address (a `template` of its parts). Required.',
  city: 'The city.',
  state: 'The state (UF).',
  cep: 'The postal code (CEP).',
  lat: 'Latitude, as a number.',
  long: 'Longitude, as a number.'
})
export const Service = Lookup('service', {
  name: 'The service\'s (procedure\'s) name. Required.',
  price: 'The price, as a number (`divide: 100` for cents).',
  duration: 'How long it takes (`unit` as stored, minutes by default); also the length of its bookings.',
  description: 'What the service is.',
  preparation: 'What the patient must do before it.'
})
export const HealthInsurance = Lookup('health insurance', {
  name: 'The insurer\'s name. Required.',
  color: 'A colour to show it with.'
})
export const Specialty = Lookup('specialty', {
  name: 'The specialty\'s name. Required.',
  description: 'What the specialty covers.',
  cbo: 'Its CBO occupation code.'
})

export const Relation = Type.Object({
  between: Type.Array(RefName, { minItems: 2, maxItems: 2, description: 'The two related resources.' }),
  table: Type.Optional(about(TableName, 'A link table with a row per related pair.', ['dbo.PROF_PROCEDIMENTO'])),
  joins: Type.Optional(Joins),
  where: Type.Optional(about(Where, 'Only the rows of `table` that meet this relate.')),
  columns: Type.Optional(Type.Record(Type.String(), Value, { description: 'For each side, where its id is held in `table`.', examples: [{ professional: 'ID_PROFISSIONAL', service: 'ID_PROCEDIMENTO' }] })),
  via: Type.Optional(Type.Literal('appointment', { description: 'Related when an appointment links both (uses its refs).' })),
  through: Type.Optional(about(RefName, 'Related through a third resource related to both (a professional and a health insurance through their specialty).', ['specialty']))
}, { additionalProperties: false, description: 'Exactly one of `table` (+ `columns`), `via` or `through`.' })

export const StateSettings = Type.Object({
  values: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Z][A-Z_]*$' }), {
    minItems: 1,
    description: 'The states this installation\'s appointments can be in (the interface\'s `state`, PATCH /appointments/{id}/state). Default: WAITING, CONFIRMED, CANCELED, MISSED, DONE.',
    examples: [['WAITING', 'CONFIRMED', 'ARRIVED', 'CANCELED', 'DONE']]
  })),
  initial: Type.Optional(Type.String({ description: 'The state a booking is created in. Default: WAITING.' })),
  moves: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()), {
    description: 'From each state, the states PATCH /state may move an appointment to (any other move is a 409). Default: any state to any other.',
    examples: [{ WAITING: ['CONFIRMED', 'CANCELED'], CONFIRMED: ['DONE', 'MISSED', 'CANCELED'] }]
  })),
  onReschedule: Type.Optional(Type.String({ description: 'State after PATCH /time, or `keep`. Default: the initial state.' })),
  free: Type.Optional(Type.Array(Type.String(), { description: 'States whose appointments no longer hold their slot (default: CANCELED).' }))
}, { additionalProperties: false, description: 'The appointment states of this installation and how they may change.' })

export const BlockSource = Type.Object({
  table: about(TableName, 'The table of blocked time (holidays, absences, closures).'),
  where: Type.Optional(about(Where, 'Only rows that meet this block.')),
  joins: Type.Optional(Type.Record(Type.String(), Join, { description: 'Tables joined to the block rows by alias.' })),
  professional: Type.Optional(about(Value, 'The professional blocked (NULL, with no `location`: everybody).')),
  location: Type.Optional(about(Value, 'The location closed: every professional there is blocked.')),
  from: about(Value, 'The first day (or date-time) blocked.'),
  to: Type.Optional(about(Value, 'The last day (or date-time) blocked; empty: the day `from` alone.')),
  start: Type.Optional(about(Value, 'The hour the block starts on each day (default: the day\'s start).')),
  end: Type.Optional(about(Value, 'The hour the block ends on each day (default: the day\'s end).'))
}, {
  additionalProperties: false,
  title: 'BlockSource',
  description: 'Blocked time. Scope: a row blocks its `professional`, every professional at its `location` (a unit closed), or, with neither (or both NULL), everybody. ' +
    '`from`/`to` as dates block whole days (or `start`…`end` hours on each of them, an `end` of 00:00 after a later `start` meaning midnight); ' +
    'as datetimes (`format: datetime`) exactly the hours between them, an end at 23:59 meaning the end of the day. ' +
    'A `to` that is NULL, blank or a `nullIf` sentinel (declare zero dates such as 0000-00-00 there) is the one day `from`; 9999-12-31 never ends. ' +
    'A `to`, `start` or `end` holding something that cannot be read makes its row block nothing (`ponte check` counts such rows).'
})

export const Availability = Type.Object({
  slotMinutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 480, description: 'The length of an offered slot where a schedule row gives no `interval`, in minutes. Default: 30.', examples: [20] })),
  weekly: Type.Optional(Type.Object({
    table: about(TableName, 'The table of working hours, a row per professional, weekday and shift.', ['dbo.GRADE']),
    where: Type.Optional(about(Where, 'Only rows that meet this are working hours.')),
    joins: Type.Optional(Type.Record(Type.String(), Join, { description: 'Tables joined to the schedule rows by alias.' })),
    professional: about(Value, 'The professional who works these hours.'),
    location: Type.Optional(about(Value, 'Where (default: any location the professional is related to).')),
    weekday: about(Value, 'The day of the week, as stored (numbered as `weekdayBase` says).'),
    weekdayBase: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal('iso')], { description: 'How `weekday` numbers the days: `0` (default) Sunday 0 … Saturday 6; `1` Sunday 1 … Saturday 7; `iso` Monday 1 … Sunday 7 (ISO 8601, PostgreSQL `isodow`).' })),
    start: about(Value, 'The hour the shift starts.'),
    end: about(Value, 'The hour the shift ends.'),
    interval: Type.Optional(about(Value, 'The slot length of this row, in minutes (default `slotMinutes`).')),
    validFrom: Type.Optional(about(Value, 'The first day the row applies (empty: always has).')),
    validTo: Type.Optional(about(Value, 'The last day the row applies (empty: no end).'))
  }, {
    additionalProperties: false,
    description: 'Working hours by weekday. An `end` of 00:00 after a later `start` is midnight. A `validFrom`/`validTo` holding something that cannot be read (not blank, not a `nullIf` sentinel) makes its row offer nothing.'
  })),
  dated: Type.Optional(Type.Object({
    table: about(TableName, 'The table of working hours on given days.'),
    where: Type.Optional(about(Where, 'Only rows that meet this are working hours.')),
    joins: Type.Optional(Type.Record(Type.String(), Join, { description: 'Tables joined to the schedule rows by alias.' })),
    professional: about(Value, 'The professional who works these hours.'),
    location: Type.Optional(about(Value, 'Where (default: any location the professional is related to).')),
    date: Type.Optional(about(Value, 'The day.')),
    start: about(Value, 'The hour (or date-time) the hours start.'),
    end: about(Value, 'The hour (or date-time) the hours end.'),
    interval: Type.Optional(about(Value, 'The slot length of this row, in minutes (default `slotMinutes`).'))
  }, { additionalProperties: false, description: '`date` and hours, or `start`/`end` stored as datetimes (then `date` may be left out: it is the start\'s). An `end` of 00:00 after a later `start` (an hour, or the next day\'s 00:00) is midnight.' })),
  blocks: Type.Optional(Type.Union([BlockSource, Type.Array(BlockSource, { minItems: 1 })], {
    description: 'Where blocked time is kept: one source, or a list (holidays, absences, closed units…).'
  }))
}, { additionalProperties: false, description: 'Where working hours and blocked time are kept, for GET /availability and for refusing bookings outside hours. Without it, /availability answers 404.' })

export const SearchKind = Type.Union([Type.Literal('phone'), Type.Literal('cpf'), Type.Literal('email'), Type.Literal('name')])

const SearchHow = Type.Union([Type.Literal('probe'), Type.Literal('scan')], {
  description: '`probe` (default): look up the stored spellings of the number, so an index on the column seeks; `scan`: read every stored value of the column and compare digits (for data `ponte check` says the probes miss).'
})

/** A kind of search term, or `{ phone: scan }` / `{ cpf: scan }`: how that kind is looked up. */
export const SearchItem = Type.Union([
  SearchKind,
  Type.Object({ phone: about(SearchHow, 'How phone terms are looked up.') }, { additionalProperties: false }),
  Type.Object({ cpf: about(SearchHow, 'How CPF terms are looked up.') }, { additionalProperties: false })
])

/** Text without control characters (line breaks, tabs, escapes); load.ts says so in words. */
export const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F-\\u009F]+$'

export const Mapping = Type.Object({
  $schema: Type.Optional(Type.String({ description: 'The JSON Schema the file follows, for editors that read it from the file (a path or URL to mapping.schema.json); Ponte ignores it.' })),
  version: Type.Literal(1, { description: 'The version of the mapping language: 1.' }),
  // Echoed by /ready and written in logs: short, one line, nothing a terminal would act on.
  installation: Type.String({ minLength: 1, maxLength: 100, pattern: NO_CONTROL_CHARACTERS, description: 'A name for logs, /ready and `ponte explain`: at most 100 characters, no control characters (line breaks, tabs).' }),
  timezone: Type.Optional(Type.String({ description: 'IANA zone of the clinic; dates and hours are its wall clock.' })),
  phone: Type.Optional(Type.Object({
    defaultCountry: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'The country of numbers stored without one (ISO 3166 code). Default: BR.', examples: ['BR', 'PT'] })),
    defaultAreaCode: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: 'The area code of numbers stored without one (\'98765-4321\' with 11: +5511987654321). Default: none (such numbers are not read).', examples: ['11'] }))
  }, { additionalProperties: false, description: 'How stored phone numbers that are not complete are read.' })),
  idSeparator: Type.Optional(Type.String({ minLength: 1, maxLength: 3, description: 'Joins the columns of a composite key into one id (default `-`).' })),
  search: Type.Optional(Type.Array(SearchItem, { minItems: 1, description: 'Kinds of term GET /clients/search matches; `{ phone: scan }` or `{ cpf: scan }` enables that kind read by a scan of every stored value instead of probes an index can serve.' })),
  settings: Type.Optional(Type.Record(Type.String(), Literal, { description: 'Values writes may use (userId, …).' })),
  states: Type.Optional(StateSettings),
  cache: Type.Optional(Type.Object({
    ttlSeconds: Type.Optional(Type.Integer({ minimum: 1, description: 'How long the lookups (professionals, locations, services…) are served from memory before they are read again. Default: 60.', examples: [300] }))
  }, { additionalProperties: false, description: 'How long lookups are kept in memory.' })),
  resources: Type.Object({
    appointment: Appointment,
    client: Client,
    professional: Type.Optional(Professional),
    location: Type.Optional(Location),
    service: Type.Optional(Service),
    healthInsurance: Type.Optional(HealthInsurance),
    specialty: Type.Optional(Specialty)
  }, { additionalProperties: false, description: 'Where each resource of the interface is kept: `appointment` and `client` always, the lookups the clinic has.' }),
  relations: Type.Optional(Type.Array(Relation, { description: 'Which lookups relate (a professional to the services they do, a location to its professionals): each used by the filters in both directions (`/professionals?service=`, `/services?professional=`).' })),
  availability: Type.Optional(Availability)
}, { additionalProperties: false, $id: 'https://ponte.dev/schema/mapping-v1.json', title: 'Ponte mapping, version 1' })

export type MappingDoc = Static<typeof Mapping>
export type ValueDoc = Static<typeof Value>
export type ValueObjectDoc = Exclude<ValueDoc, string>
export type RuleDoc = NonNullable<ValueObjectDoc['rules']>[number]
export type ConditionDoc = Static<typeof Condition>
export type ConditionLeafDoc = Static<typeof ConditionLeaf>
export type WhereDoc = Static<typeof Where>
export type JoinDoc = Static<typeof Join>
export type SqlTypeName = Static<typeof SqlType>
export type RefNameT = Static<typeof RefName>
export type RelationDoc = Static<typeof Relation>
export type LiteralValue = Static<typeof Literal>
export type WriteSpecDoc = Static<typeof WriteSpec>
