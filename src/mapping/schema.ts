// The mapping language, version 1: the one definition from which the loader validates,
// TypeScript takes its types and `mapping.schema.json` (for clinic IT's editors) is generated.
// Keep it declarative: anything the compiler cannot turn into a parameterised statement
// does not belong here (the `sql` escape hatch is read-only and per dialect).
import Type, { type Static, type TOptional, type TString } from 'typebox'
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

export const SqlType = Type.Union([
  Type.Literal('int'), Type.Literal('bigint'), Type.Literal('smallint'),
  Type.Literal('text'), Type.Literal('ntext'), Type.Literal('char'), Type.Literal('nchar'),
  Type.Literal('decimal'), Type.Literal('date'), Type.Literal('datetime'), Type.Literal('time'), Type.Literal('bit')
], { description: 'The column\'s real type, so parameters bind without conversions (text = VARCHAR, ntext = NVARCHAR on SQL Server).' })

export const ConditionLeaf = Type.Object({
  column: ColumnName,
  eq: Type.Optional(Literal),
  ne: Type.Optional(Literal),
  in: Type.Optional(Type.Array(Literal, { minItems: 1 })),
  notIn: Type.Optional(Type.Array(Literal, { minItems: 1 })),
  isNull: Type.Optional(Type.Boolean()),
  blank: Type.Optional(Type.Boolean({ description: 'true: NULL or only spaces; false: holds something.' }))
}, { additionalProperties: false, title: 'ConditionLeaf' })

export const Condition = Type.Union([
  ConditionLeaf,
  Type.Object({ all: Type.Array(ConditionLeaf, { minItems: 1 }) }, { additionalProperties: false }),
  Type.Object({ any: Type.Array(ConditionLeaf, { minItems: 1 }) }, { additionalProperties: false })
], { title: 'Condition' })

export const Where = Type.Union([Condition, Type.Array(Condition)], {
  title: 'Where',
  description: 'Rows that exist for the interface. A list means all of them.'
})

export const Join = Type.Object({
  table: TableName,
  from: Type.Optional(Type.String({ description: 'The alias this join hangs from (default: the resource table).' })),
  on: Type.Record(Type.String(), Type.String(), {
    description: 'Columns of `from` → columns of this table, compared for equality.'
  }),
  where: Type.Optional(Where),
  first: Type.Optional(Type.Object({
    key: Type.String({ description: 'A column of the joined table unique per row (its key).' }),
    by: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Object({
      column: Type.String(),
      desc: Type.Optional(Type.Boolean())
    }, { additionalProperties: false })]), { description: 'Order deciding which row is first (the key breaks ties).' }))
  }, {
    additionalProperties: false,
    description: 'Of the rows matching `on` and `where`, join only the first by `by` (a person\'s preferred name): the parent row is never repeated.'
  }))
}, { additionalProperties: false, title: 'Join' })

// Values compose: wherever a value is allowed (a coalesce item, a rule's outcome, the ends of
// `minutes`) any value is, by reference to the one definition below. The model bounds how
// deep they nest (model.ts MAX_VALUE_DEPTH).
const NestedValue = Type.Ref('Value')

export const Rule = Type.Object({
  when: Type.Optional(Condition),
  value: Type.Optional(Literal),
  column: Type.Optional(ColumnName),
  template: Type.Optional(Type.String({ description: 'The outcome as text from columns, as a value\'s `template`.' })),
  coalesce: Type.Optional(Type.Array(NestedValue, { minItems: 1, description: 'The outcome: the first non-blank of these columns or values.' })),
  then: Type.Optional(NestedValue)
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
  column: Type.Optional(ColumnName),
  coalesce: Type.Optional(Type.Array(NestedValue, {
    minItems: 1,
    description: 'First non-blank of these columns or values (`[{ template: \'{name.given_name} {name.family_name}\' }, provider_name]`). Writes go to the last item when it is a column of the table.'
  })),
  template: Type.Optional(Type.String({ description: 'Text from columns: `{RUA}, {NUMERO} - {BAIRRO}`. Separators next to a blank part are dropped.' })),
  rules: Type.Optional(Type.Array(Rule, { minItems: 1 })),
  sql: Type.Optional(SqlPerDialect),
  value: Type.Optional(Literal),
  minutes: Type.Optional(Type.Object({
    from: NestedValue,
    to: NestedValue
  }, { additionalProperties: false, description: 'Minutes between two date-times, each a column or any value (a slot\'s length from its start and end).' })),
  collect: Type.Optional(Type.Object({
    table: TableName,
    on: Type.Record(Type.String(), Type.String(), { description: 'Columns of the resource (`COL` or `alias.COL`) → columns of `table`, compared for equality.' }),
    where: Type.Optional(Where),
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
  unit: Type.Optional(Type.Union([Type.Literal('minutes'), Type.Literal('seconds'), Type.Literal('hours')])),
  divide: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'Stored number / divide (prices in cents: 100).' })),
  type: Type.Optional(SqlType),
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
  column: ColumnName,
  type: Type.Optional(SqlType)
}, { additionalProperties: false })])

export const Key = Type.Union([KeyPart, Type.Array(KeyPart, { minItems: 2, description: 'A key of several columns: its id is their values joined by `idSeparator`.' })], {
  description: 'The key column (type int unless given), or a list of them.'
})

// Write side (implemented by the booking issue; part of v1 so the format does not break later).
export const WriteValue = Type.Union([
  Type.Object({ value: Type.Union([Literal, Type.Null()]) }, { additionalProperties: false }),
  Type.Object({ now: Type.Union([Type.Literal('datetime'), Type.Literal('date'), Type.Literal('time')]) }, { additionalProperties: false }),
  Type.Object({ setting: Type.String({ description: 'A value from the installation settings, e.g. `userId`.' }) }, { additionalProperties: false }),
  Type.Object({
    slot: Type.Union([Type.Literal('start'), Type.Literal('end'), Type.Literal('length')]),
    format: Type.Optional(ValueFormat),
    unit: Type.Optional(Type.Union([Type.Literal('minutes'), Type.Literal('seconds'), Type.Literal('hours')])),
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
    identifier: Type.Object({
      check: Type.Literal('luhn', { description: 'Luhn mod N over `characters` (N = their number): mod 10 with digits, OpenMRS\'s mod 30 with `0123456789ACDEFGHJKLMNPRTUVWXY`.' }),
      characters: Type.Optional(Type.String({ minLength: 2, description: 'The alphabet, in value order (default 0123456789).' })),
      prefix: Type.Optional(Type.String({ description: 'Text before the number (not part of the check).' })),
      digits: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'The number left-padded with zeros to this many digits.' }))
    }, { additionalProperties: false })
  }, { additionalProperties: false, description: 'An identifier made from the new record\'s key followed by its check character.' }),
  Type.Object({ state: Type.Literal(true, { description: 'The new state as stored (through the state\'s `map`).' }) }, { additionalProperties: false })
], { title: 'WriteValue' })

export const KeyGeneration = Type.Union([
  Type.Object({ generate: Type.Literal('identity') }, { additionalProperties: false }),
  Type.Object({ generate: Type.Literal('max') }, { additionalProperties: false }),
  Type.Object({ generate: Type.Literal('sequence'), sequence: Type.String() }, { additionalProperties: false }),
  Type.Object({
    generate: Type.Literal('keyTable'),
    table: TableName,
    nameColumn: Type.String(),
    name: Type.String(),
    valueColumn: Type.String()
  }, { additionalProperties: false })
])

export const ExtraRow = Type.Object({
  join: Type.Optional(Type.String({ description: 'A join of the resource: a row of its table is inserted, the columns of its `on` shared with the row it hangs from.' })),
  phones: Type.Optional(Type.Integer({ minimum: 0, description: 'An entry of `phones` that collects from a child table: a row holding the phone is inserted there.' })),
  key: Type.Optional(KeyGeneration),
  set: Type.Optional(Type.Record(Type.String(), WriteValue, { description: 'Other columns of the row.' }))
}, { additionalProperties: false, title: 'ExtraRow', description: 'One more row written with the resource\'s, in the same transaction: give `join` or `phones`. A `before` row\'s `key` makes the key its join\'s `on` shares (a person\'s id, which the patient row takes as its own).' })

export const StatusHistory = Type.Object({
  table: TableName,
  key: Type.String({ description: 'The column holding the appointment\'s key.' }),
  current: Where,
  open: Type.Record(Type.String(), WriteValue, { description: 'Columns of the row opened for the new state (on booking too).' }),
  close: Type.Record(Type.String(), WriteValue, { description: 'Columns set on the current row(s) when the state changes.' })
}, { additionalProperties: false, title: 'StatusHistory', description: 'A status-history table: each state change closes the current row and opens a new one, in the same transaction.' })

/** Request fields a mapping may declare as accepted but not stored (`write.ignore`). */
export const IGNORABLE = ['phone', 'email', 'cpf', 'birthday', 'healthInsurance', 'location', 'professional', 'service', 'plan'] as const

export const WriteSpec = Type.Object({
  key: Type.Optional(KeyGeneration),
  set: Type.Optional(Type.Record(Type.String(), WriteValue, { description: 'Columns an insert fills besides the mapped fields.' })),
  phoneFormat: Type.Optional(Type.Union([Type.Literal('e164'), Type.Literal('digits'), Type.Literal('national'), Type.Literal('masked')])),
  cpfFormat: Type.Optional(Type.Union([Type.Literal('digits'), Type.Literal('masked')])),
  states: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), WriteValue), {
    description: 'Columns written to put an appointment in each interface state.'
  })),
  reschedule: Type.Optional(Type.Record(Type.String(), WriteValue, { description: 'Extra columns written on a reschedule.' })),
  slot: Type.Optional(Type.Object({
    join: Type.String({ description: 'The appointment\'s join whose row is the booked time slot (its start, and the refs read through it, come from there).' }),
    capacity: Type.Optional(Type.Union([
      Type.Integer({ minimum: 1, maximum: 1000 }),
      Type.Object({
        column: ColumnName
      }, { additionalProperties: false, description: 'A column of the slot (`slot.max_patients`) or of a join below it (`block.max_patients`); NULL counts as 1, 0 closes the slot.' })
    ], {
      description: 'How many appointments one slot takes (default 1): /availability offers it while fewer hold it (by the same rule as a taken slot), booking refuses it (409) once full. A number for every slot, or `{ column }` per slot.'
    })),
    services: Type.Optional(Type.Object({
      table: Type.Optional(TableName),
      on: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'With `table`: columns of the slot or a join below it (`block.ID`) → columns of `table`.' })),
      where: Type.Optional(Where),
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
  }, { additionalProperties: false }))])), {
    additionalProperties: false,
    description: 'How to write an appointment ref that is read through a join (`location: sala.ID_UNIDADE`). Without an entry such a ref is read-only: booking with it is refused (501), unless it is listed under `ignore`. Never valid when the join\'s column is also where another field is written (the patient\'s id, the slot).'
  })),
  triggers: Type.Optional(Type.Boolean({ description: 'The table has triggers. Documentation only: Ponte always inserts with OUTPUT … INTO, which SQL Server accepts on tables with triggers.' }))
}, { additionalProperties: false, title: 'WriteSpec' })

const Table = {
  table: TableName,
  key: Key,
  where: Type.Optional(Where),
  joins: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), Join))
}

const Fields = <T extends Record<string, unknown>>(names: (keyof T & string)[]) =>
  Type.Object(Object.fromEntries(names.map((n) => [n, Type.Optional(Value)])), { additionalProperties: false })

export const RefName = Type.Union([
  Type.Literal('client'), Type.Literal('professional'), Type.Literal('location'), Type.Literal('service'),
  Type.Literal('healthInsurance'), Type.Literal('specialty'), Type.Literal('plan')
])

export const Appointment = Type.Object({
  ...Table,
  start: Type.Object({
    datetime: Type.Optional(Value),
    date: Type.Optional(Value),
    hour: Type.Optional(Value)
  }, { additionalProperties: false, description: 'Either `datetime`, or `date` and `hour`.' }),
  end: Type.Optional(Type.Object({
    datetime: Type.Optional(Value),
    hour: Type.Optional(Value),
    duration: Type.Optional(Value)
  }, { additionalProperties: false, description: 'One of `datetime`, `hour`, or `duration` (with `unit`).' })),
  state: Value,
  slotHolding: Type.Optional(Type.Union([Condition, Type.Array(Condition)], {
    description: 'Rows of the table that hold a slot without being an appointment (a blocked row with no patient, a lunch, a meeting): never listed, never offered, whatever their state. A list means all of them.'
  })),
  classification: Type.Optional(Value),
  refs: Type.Optional(Type.Object({
    client: Type.Optional(Value),
    professional: Type.Optional(Value),
    location: Type.Optional(Value),
    service: Type.Optional(Value),
    healthInsurance: Type.Optional(Value),
    specialty: Type.Optional(Value),
    plan: Type.Optional(Value)
  }, { additionalProperties: false, description: 'Where the ids of related records are held.' })),
  write: Type.Optional(WriteSpec)
}, { additionalProperties: false })

export const Client = Type.Object({
  ...Table,
  fields: Fields<{ name: 1, description: 1, cpf: 1, email: 1, birthday: 1, image: 1, externalId: 1 }>(
    ['name', 'description', 'cpf', 'email', 'birthday', 'image', 'externalId']),
  phones: Type.Optional(Type.Array(Value, { description: 'Phone columns in order of preference: the first readable one is `phone`, all of them `allPhones`.' })),
  write: Type.Optional(WriteSpec)
}, { additionalProperties: false })

const Lookup = <N extends string>(names: N[], extra: Record<string, ReturnType<typeof Type.Optional>> = {}) => Type.Object({
  ...Table,
  fields: Type.Object(Object.fromEntries(names.map((n) => [n, Type.Optional(Value)])), { additionalProperties: false }),
  ...extra
}, { additionalProperties: false })

export const Professional = Lookup(['name', 'description', 'image', 'expertise', 'register'],
  { enabled: Type.Optional(Value) })
// `enabled` on every lookup: a disabled one is not offered for new bookings, and is still
// shown on the past appointments that name it.
const Enabled = { enabled: Type.Optional(Value) }
export const Location = Lookup(['name', 'address', 'city', 'state', 'cep', 'lat', 'long'], Enabled)
export const Service = Lookup(['name', 'price', 'duration', 'description', 'preparation'],
  { enabled: Type.Optional(Value) })
export const HealthInsurance = Lookup(['name', 'color'], Enabled)
export const Specialty = Lookup(['name', 'description', 'cbo'], Enabled)

export const Relation = Type.Object({
  between: Type.Array(RefName, { minItems: 2, maxItems: 2, description: 'The two related resources.' }),
  table: Type.Optional(TableName),
  joins: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }), Join)),
  where: Type.Optional(Where),
  columns: Type.Optional(Type.Record(Type.String(), Value, { description: 'For each side, where its id is held in `table`.' })),
  via: Type.Optional(Type.Literal('appointment', { description: 'Related when an appointment links both (uses its refs).' })),
  through: Type.Optional(RefName)
}, { additionalProperties: false, description: 'Exactly one of `table` (+ `columns`), `via` or `through`.' })

export const StateSettings = Type.Object({
  values: Type.Optional(Type.Array(Type.String({ pattern: '^[A-Z][A-Z_]*$' }), { minItems: 1 })),
  initial: Type.Optional(Type.String()),
  moves: Type.Optional(Type.Record(Type.String(), Type.Array(Type.String()))),
  onReschedule: Type.Optional(Type.String({ description: 'State after PATCH /time, or `keep`.' })),
  free: Type.Optional(Type.Array(Type.String(), { description: 'States whose appointments no longer hold their slot (default: CANCELED).' }))
}, { additionalProperties: false })

export const BlockSource = Type.Object({
  table: TableName,
  where: Type.Optional(Where),
  joins: Type.Optional(Type.Record(Type.String(), Join)),
  professional: Type.Optional(Value),
  location: Type.Optional(Value),
  from: Value,
  to: Type.Optional(Value),
  start: Type.Optional(Value),
  end: Type.Optional(Value)
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
  slotMinutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 480 })),
  weekly: Type.Optional(Type.Object({
    table: TableName,
    where: Type.Optional(Where),
    joins: Type.Optional(Type.Record(Type.String(), Join)),
    professional: Value,
    location: Type.Optional(Value),
    weekday: Value,
    weekdayBase: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)], { description: 'Stored number for Sunday (0 or 1).' })),
    start: Value,
    end: Value,
    interval: Type.Optional(Value),
    validFrom: Type.Optional(Value),
    validTo: Type.Optional(Value)
  }, {
    additionalProperties: false,
    description: 'Working hours by weekday. An `end` of 00:00 after a later `start` is midnight. A `validFrom`/`validTo` holding something that cannot be read (not blank, not a `nullIf` sentinel) makes its row offer nothing.'
  })),
  dated: Type.Optional(Type.Object({
    table: TableName,
    where: Type.Optional(Where),
    joins: Type.Optional(Type.Record(Type.String(), Join)),
    professional: Value,
    location: Type.Optional(Value),
    date: Type.Optional(Value),
    start: Value,
    end: Value,
    interval: Type.Optional(Value)
  }, { additionalProperties: false, description: '`date` and hours, or `start`/`end` stored as datetimes (then `date` may be left out: it is the start\'s). An `end` of 00:00 after a later `start` (an hour, or the next day\'s 00:00) is midnight.' })),
  blocks: Type.Optional(Type.Union([BlockSource, Type.Array(BlockSource, { minItems: 1 })], {
    description: 'Where blocked time is kept: one source, or a list (holidays, absences, closed units…).'
  }))
}, { additionalProperties: false })

export const SearchKind = Type.Union([Type.Literal('phone'), Type.Literal('cpf'), Type.Literal('email'), Type.Literal('name')])

const SearchHow = Type.Union([Type.Literal('probe'), Type.Literal('scan')], {
  description: '`probe` (default): look up the stored spellings of the number, so an index on the column seeks; `scan`: read every stored value of the column and compare digits (for data `ponte check` says the probes miss).'
})

/** A kind of search term, or `{ phone: scan }` / `{ cpf: scan }`: how that kind is looked up. */
export const SearchItem = Type.Union([
  SearchKind,
  Type.Object({ phone: SearchHow }, { additionalProperties: false }),
  Type.Object({ cpf: SearchHow }, { additionalProperties: false })
])

/** Text without control characters (line breaks, tabs, escapes); load.ts says so in words. */
export const NO_CONTROL_CHARACTERS = '^[^\\u0000-\\u001F\\u007F-\\u009F]+$'

export const Mapping = Type.Object({
  $schema: Type.Optional(Type.String()),
  version: Type.Literal(1),
  // Echoed by /ready and written in logs: short, one line, nothing a terminal would act on.
  installation: Type.String({ minLength: 1, maxLength: 100, pattern: NO_CONTROL_CHARACTERS, description: 'A name for logs, /ready and `ponte explain`: at most 100 characters, no control characters (line breaks, tabs).' }),
  timezone: Type.Optional(Type.String({ description: 'IANA zone of the clinic; dates and hours are its wall clock.' })),
  phone: Type.Optional(Type.Object({
    defaultCountry: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
    defaultAreaCode: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$' }))
  }, { additionalProperties: false })),
  idSeparator: Type.Optional(Type.String({ minLength: 1, maxLength: 3, description: 'Joins the columns of a composite key into one id (default `-`).' })),
  search: Type.Optional(Type.Array(SearchItem, { minItems: 1, description: 'Kinds of term GET /clients/search matches; `{ phone: scan }` or `{ cpf: scan }` enables that kind read by a scan of every stored value instead of probes an index can serve.' })),
  settings: Type.Optional(Type.Record(Type.String(), Literal, { description: 'Values writes may use (userId, …).' })),
  states: Type.Optional(StateSettings),
  cache: Type.Optional(Type.Object({ ttlSeconds: Type.Optional(Type.Integer({ minimum: 1 })) }, { additionalProperties: false })),
  resources: Type.Object({
    appointment: Appointment,
    client: Client,
    professional: Type.Optional(Professional),
    location: Type.Optional(Location),
    service: Type.Optional(Service),
    healthInsurance: Type.Optional(HealthInsurance),
    specialty: Type.Optional(Specialty)
  }, { additionalProperties: false }),
  relations: Type.Optional(Type.Array(Relation)),
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
