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

/** How stored text codes compare with the mapping's: `anyCase` (the default) or `exact`. */
export const CodeCase = Type.Union([Type.Literal('anyCase'), Type.Literal('exact')], {
  description: 'How stored text codes compare with the mapping\'s: `anyCase` (the default: `b` is `B`) or `exact` (case counts: `b` and `B` are different codes, whatever the column\'s collation). Trailing spaces never count (CHAR columns pad).'
})

export const ConditionLeaf = Type.Object({
  column: ColumnName,
  eq: Type.Optional(about(Literal, 'Holds when the column equals this (text without trailing spaces, in any case unless `codes: exact`; a number as a number): `eq: \'S\'` for a char flag, `eq: 1` for an int one.', ['S', 1])),
  ne: Type.Optional(about(Literal, 'Holds when the column differs from this, or is NULL (a soft-delete flag `ne: \'S\'` keeps rows never flagged).', ['S'])),
  in: Type.Optional(Type.Array(Literal, { minItems: 1, description: 'Holds when the column equals one of these.', examples: [['A', 'C']] })),
  notIn: Type.Optional(Type.Array(Literal, { minItems: 1, description: 'Holds when the column equals none of these, or is NULL.', examples: [['X', 'D']] })),
  isNull: Type.Optional(Type.Boolean({ description: 'true: the column is NULL; false: it holds a value (`DT_EXCLUSAO` with `isNull: true`: not deleted).' })),
  blank: Type.Optional(Type.Boolean({ description: 'true: NULL or only spaces; false: holds something.' })),
  codes: Type.Optional(about(CodeCase, 'How the text of `eq`, `ne`, `in` and `notIn` compares with the column: `exact` when case tells codes apart (`eq: b` then never holds for `B`). Default: `anyCase`.', ['exact']))
}, { additionalProperties: false, title: 'ConditionLeaf' })

/** How deep `all`/`any`/`not` may nest: deeper is a mistake (the model says so), not a need. */
export const MAX_CONDITION_DEPTH = 4

// Conditions nest (`any` of `all`s): each list item is a condition itself, by reference to the
// one definition below, as values do.
const NestedCondition = Type.Ref('Condition')

const ConditionUnion = Type.Union([
  ConditionLeaf,
  Type.Object({ all: Type.Array(NestedCondition, { minItems: 1, description: 'Holds when every one of these conditions holds (each a test on a column, or `all`/`any`/`not` itself).' }) }, { additionalProperties: false }),
  Type.Object({ any: Type.Array(NestedCondition, { minItems: 1, description: 'Holds when at least one of these conditions holds (each a test on a column, or `all`/`any`/`not` itself): `(P and T) or (Q and U)` is an `any` of two `all`s.' }) }, { additionalProperties: false }),
  Type.Object({ not: about(NestedCondition, 'Holds when this condition does not (a NULL compared with a literal is false, so `not: { column: X, eq: 1 }` holds for NULL).') }, { additionalProperties: false })
], { title: 'Condition', description: `A test on a column of the row: \`{ column, eq | ne | in | notIn | isNull | blank }\`, or \`all\`/\`any\` of conditions, or \`not\` of one; groups nest up to ${MAX_CONDITION_DEPTH} deep.` })

/** The definition a nested condition's `$ref` names. */
export const CONDITION_DEFS = { Condition: ConditionUnion }

export const Condition = Type.Cyclic(CONDITION_DEFS, 'Condition')

export const Where = Type.Union([Condition, Type.Array(Condition)], {
  title: 'Where',
  description: 'Rows that exist for the interface. A list means all of them.'
})

// What one pair of a join's `on` compares: a column, or a column whose value the other side
// holds inside a fixed text (OSCAR's `P:FullDay` naming the shared template `FullDay`).
const JoinColumn = Type.Union([
  Type.String({ description: 'A column of the joined table, equal to the column on the left.' }),
  Type.Object({
    column: Type.String({ description: 'A column of the joined table.' }),
    prefix: Type.Optional(Type.String({ description: 'Text the left column holds before this column\'s value (`P:`): `hour: { column: name, prefix: \'P:\' }` joins `hour = \'P:\' || name`. Not empty.', examples: ['P:'] })),
    suffix: Type.Optional(Type.String({ description: 'Text the left column holds after this column\'s value. Not empty.' }))
  }, {
    additionalProperties: false,
    description: 'A column of the joined table whose value the left column holds with `prefix` before it and/or `suffix` after it (case and trailing spaces compare as the database compares them). The joined column is compared with the left one stripped of them, so an index on the joined column still finds the row. Read-only: a join a write goes through (`write.before`/`after`, `write.slot`, `stateRows`, `firstOf`, a `phones` row) takes plain columns.'
  })
])

/** A join's column pairs: the parent's column (`from`'s, or the resource's) → the joined table's. */
const JoinOn = Type.Record(Type.String(), JoinColumn, {
  description: 'Columns of `from` → columns of this table, compared for equality; a column of this table may be `{ column, prefix, suffix }` when the left one holds its value inside a fixed text.'
})

export const Join = Type.Object({
  table: about(TableName, 'The table joined (a left join: rows without a match still read); its columns are then `alias.COLUMN` wherever a column is named.', ['dbo.SALA']),
  from: Type.Optional(Type.String({ description: 'The alias this join hangs from (default: the resource table).' })),
  on: JoinOn,
  where: Type.Optional(about(Where, 'Only rows of the joined table that meet this are joined (a row that has none gets NULLs).')),
  first: Type.Optional(Type.Object({
    key: Type.String({ description: 'A column of the joined table unique per row (its key).' }),
    by: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Object({
      column: Type.String({ description: 'A column of the joined table.' }),
      desc: Type.Optional(Type.Boolean({ description: 'true: the largest value first (the latest date). Default false.' }))
    }, { additionalProperties: false })]), { description: 'Order deciding which row is first; the key breaks ties, lowest first unless `by` names it (the latest history row: `[{ column: changed_at, desc: true }, { column: id, desc: true }]`).', examples: [[{ column: 'updated_at', desc: true }]] })),
    asOf: Type.Optional(Type.Object({
      column: Type.String({ minLength: 1, description: 'A column of the joined table: when the row takes effect (a plan\'s effective date). NULL: in force always, and taken after every dated row in force.', examples: ['date'] }),
      notAfter: Type.String({ minLength: 1, description: 'A column of the parent row (the appointment\'s date or start datetime) the joined `column` may not be after.', examples: ['pc_eventDate'] })
    }, {
      additionalProperties: false,
      description: 'Only rows in force on the parent row\'s date: the joined `column` on or before the parent\'s `notAfter` column (compared as the database compares them: both dates, datetimes or ISO text), or NULL. With `by: [{ column: <it>, desc: true }]`, the latest row in force (OpenEMR\'s primary `insurance_data` row on the appointment\'s date). A reschedule then reads the ref again on the new date.'
    }))
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
  Type.Literal('date'), Type.Literal('datetime'), Type.Literal('text'), Type.Literal('int'), Type.Literal('dmy'), Type.Literal('ymd'),
  Type.Literal('time'), Type.Literal('hhmm'), Type.Literal('minutes')
], { description: 'How a date or hour is stored: date/datetime/time columns, `text` (\'HH:MM\', \'YYYY-MM-DD\'), `dmy` text (\'DD/MM/YYYY\'), `ymd` text (\'20260315\', a `CHAR(8)`), `int` (20260315, a number column), `hhmm` (1330) or `minutes` since midnight.' })

// One key per database of sql/databases.ts: a misspelt one is refused, not silently unused.
const SqlPerDialect = Type.Object({
  ...Object.fromEntries(DIALECT_NAMES.map((name) => [name, Type.Optional(Type.String({ description: `On ${DATABASES[name].label}.` }))])) as Record<DialectName, TOptional<TString>>,
  default: Type.Optional(Type.String({ description: 'On a database without its own key.' }))
}, {
  additionalProperties: false,
  description: `Read-only escape hatch: a SQL expression per dialect (${DIALECT_NAMES.join(', ')}) over the resource's aliases.`
})

const SplitRule = Type.Union([Type.Literal('firstSpace'), Type.Literal('lastSpace'), Type.Literal('particles')], {
  description: 'Which of the name\'s words are the family name: `firstSpace` (the default: all but the first), `lastSpace` (the last: `Maria das Graças` + `Silva`), or `particles`: from the first particle after the first word, in any case (Portuguese `da das de do dos e`, French `du des la le les`, Spanish `del las los y`, Italian `di dal dalla dei degli della delle lo`, Dutch `van der den ter ten het`, German `von vom zu zum zur`: `João` + `da Silva`, `José Carlos` + `de Oliveira Santos`, `Marie Claire` + `de la Fontaine`), a Brazilian compound given name followed by a family name staying given (`Maria das Graças` + `de Souza e Silva`, `Maria das Graças` + `Silva`), a joining `e` or `y` taking the word before it (`Ana` + `Souza e Silva`); without a particle the last word (`Ana Paula` + `Souza`), and the word before a closing `Filho`, `Filha`, `Júnior`, `Junior` or `Jr` (`Carlos E.` + `Nogueira Filho`) or, with two words or more before that word, `Neto`, `Neta`, `Sobrinho` or `Sobrinha` (`João` + `da Silva Neto`, but `Ana Paula` + `Neto`).'
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
    on: about(JoinOn, 'Columns of the resource (`COL` or `alias.COL`) → columns of `table`, compared for equality; a column of `table` may be `{ column, prefix, suffix }` when the resource\'s holds its value inside a fixed text.'),
    where: Type.Optional(about(Where, 'Only rows of `table` that meet this (`{ column: kind, eq: PHONE }`).')),
    column: Type.String({ description: 'The column of `table` holding each value.' }),
    by: Type.Optional(Type.Array(Type.String(), { description: 'Columns of `table` ordering the values (the first is the preferred one).' }))
  }, {
    additionalProperties: false,
    description: 'Read-only: every value of `column` in the rows of a child table (phones kept as attribute rows), in the same statement; blank and repeated values are dropped. Values are listed with `|` between them, so a value holding `|` reads as two.'
  })),
  extract: Type.Optional(Type.String({
    minLength: 1,
    description: 'Read only part of a text: a regular expression (JavaScript syntax) with exactly one capture group, whose text is the value (before `nullIf`, `map` and `format`); no match reads as none. For values kept inside a longer text: a key of a PHP-serialized array (OpenEMR\'s `pc_recurrspec`), a field of a packed string. Read-only and applied after the row is read: a value with `extract` cannot be written, nor compared in SQL (a filter, a search, a date range, a relation), which refuse it at its line. Only the first 8,192 characters of the text are searched, and a pattern repeating a group that itself repeats (`(a+)+`) or holds alternatives, or with more than one wide repetition (`.*`, `[^"]*`), is refused: both keep a regular expression from taking very long on some text.',
    examples: ['"event_repeat_freq";s:\\d+:"(\\d+)"', '^(\\d{4})-']
  })),
  nullIf: Type.Optional(Type.Array(Literal, { description: 'Stored values that mean "none" (\'\', \'0000-00-00\', 0, -1).' })),
  map: Type.Optional(Type.Record(Type.String(), Literal, { description: 'Stored value → interface value (used both ways for writes: a write stores the first code given for the value). Text codes compare without trailing spaces and in any case unless `codes: exact`; a code no entry names reads as nothing.' })),
  codes: Type.Optional(about(CodeCase, 'How stored codes meet the keys of `map`: `exact` when case tells them apart (OSCAR\'s `b` Left Message and `B` Billed), on reads, `?state=` filters, the states that free a slot and `check`\'s count of unmapped codes. Default: `anyCase`.', ['exact'])),
  match: Type.Optional(Type.Union([Type.Literal('whole'), Type.Literal('prefix')], {
    description: 'How much of a stored code a key of `map` must match: `whole` (the default) or `prefix`, the first characters decide: with `B: DONE`, the codes `B` and `BS` both read DONE; a longer key (`BS`) wins over a shorter one. Writes store the key as given.',
    examples: ['prefix']
  })),
  trueValues: Type.Optional(Type.Array(Literal, {
    description: 'A yes/no field (`enabled`): the stored values that read as yes; any other stored value reads as no; NULL leaves the default (a lookup stays enabled). Compared as trimmed text in any case; `true` and `false` match a boolean column\'s values and their 1/0, t/f spellings on every database. Default: 1, \'S\', \'Y\', \'YES\', \'SIM\', \'T\', \'TRUE\', \'V\'.',
    examples: [['S'], [1], ['A', 'ATIVO']]
  })),
  // YAML (and so the YAML language server) reads a key `true:` as the boolean true, so
  // editors flag it: kept for mappings written before `trueValues`.
  true: Type.Optional(Type.Array(Literal, { description: 'The old spelling of `trueValues`, still read. Prefer `trueValues`: editors read the key `true` as a boolean and flag it.', deprecated: true })),
  invert: Type.Optional(Type.Boolean({ description: 'The column says the opposite (INATIVO, IsHidden).' })),
  format: Type.Optional(ValueFormat),
  separator: Type.Optional(Type.Union([Type.Literal('/'), Type.Literal('.'), Type.Literal('-')], {
    description: 'With `format: dmy`, the character the column keeps between day, month and year, so writes store `03.04.1985` where the rows do. Default `/`. Reads take any of the three.',
    examples: ['.']
  })),
  pad: Type.Optional(Type.Union([Type.Literal(1), Type.Literal(2)], {
    description: 'A birthday kept in three columns (a `template` of day, month and year): the digits month and day are written with, `2` zero-padded (`07`, the default) or `1` as OSCAR\'s older rows keep them (`7`). Reads take either; `ponte check` warns when most stored rows are padded otherwise.',
    examples: [1]
  })),
  split: Type.Optional(Type.Union([SplitRule, Type.Object({
    rule: Type.Optional(SplitRule),
    family: Type.Optional(Type.String({
      minLength: 1,
      description: 'The template\'s column holding the family name (default: its last). The columns before it take the given names; a column after it (OpenMRS\'s `family_name2`) is still read, but written blank, so a two-word name fills the family column first.',
      examples: ['name.family_name']
    })),
    familyPrefix: Type.Optional(Type.String({
      minLength: 1,
      description: 'The template\'s column just before the family\'s that takes the family name\'s leading particles (OpenMRS\'s `family_name_prefix`): `Maria das Graças de Souza` is written `Maria` · `das Graças` · `de` · `Souza`, `Ana Souza e Silva` `Ana` · (blank) · `Souza e Silva`. At least the family\'s last word stays in the family column; the template reads the name back whole.',
      examples: ['name.family_name_prefix']
    })),
    middle: Type.Optional(Type.String({
      minLength: 1,
      description: 'A column the template does not read that takes the given names after the first (Open Dental\'s `MiddleI` under `{FName} {LName}`): `Carlos Eduardo Santos` is written `Carlos` · `Eduardo` · `Santos`. Reads and searches stay the template\'s, so the name then reads back (and is answered) without its middle names.',
      examples: ['MiddleI']
    })),
    alone: Type.Optional(Type.Union([Type.Literal('given'), Type.Literal('family'), Type.Literal('both')], {
      description: 'Where a one-word name goes: `given` (the default: the first column), `family` (the family column, where the legacy system requires one), or `both` (each of the two, read back as the word twice).',
      examples: ['family']
    }))
  }, {
    additionalProperties: false,
    description: 'The rule with the template\'s roles: which column is the family\'s and which its particles\', a write-only middle column, where a lone word goes.'
  })], {
    description: 'Where a name written through a `{given} {family}` template is cut: a rule, or `{ rule, family, familyPrefix, middle, alone }` adding the template\'s roles. Joined by the template, every rule reads the name back as sent (but for `middle` and `alone: both`).',
    examples: ['particles', { rule: 'particles', family: 'family_name' }]
  })),
  case: Type.Optional(Type.Literal('upper', {
    description: 'The client\'s name is kept in upper case by the clinic\'s system: Ponte writes it upper-cased (`MARIA DAS GRAÇAS`), the read-back compares it without regard to case, and GET answers it as stored. Without it, a database that changes a name\'s case is refused (501).',
    examples: ['upper']
  })),
  unit: Type.Optional(about(Minutes, 'The unit a duration is stored in. Default: minutes.')),
  pattern: Type.Optional(Type.Object({
    per: Type.Integer({ minimum: 1, maximum: 60, description: 'Minutes each character stands for (Open Dental: 5).' }),
    repeat: Type.Optional(Type.String({ minLength: 1, maxLength: 1, description: 'The character a booking writes once per `per` minutes (default `X`).' })),
    edges: Type.Optional(Type.String({ minLength: 1, description: 'What a booking writes at both ends, each character also `per` minutes (`/`: 30 min at 5 → `/XXXX/`).' }))
  }, {
    additionalProperties: false,
    description: 'A length (an appointment\'s `end.duration`, a service\'s `duration`) stored as a pattern string: every character, whichever it is, stands for `per` minutes (`XX//` at 5: 20 minutes). A booking writes the booked length as `edges`, `repeat` between, `edges`; a length that is not a whole number of characters is refused (501).',
    examples: [{ per: 5, repeat: 'X', edges: '/' }]
  })),
  inclusive: Type.Optional(Type.Boolean({ description: 'An end stored as its last minute (OSCAR\'s 09:14 for an appointment ending at 09:15): read one minute later, written one minute earlier. On an appointment\'s `end.hour`/`end.datetime`, and the `end` (or datetime `to`) of working hours and blocks.' })),
  divide: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'Stored number / divide (prices in cents: 100).' })),
  decimal: Type.Optional(Type.Union([Type.Literal('.'), Type.Literal(',')], {
    description: 'A number kept as text (a `price`, a `duration`): the character before its decimals. `.` (the default: `1150.50`; a lone comma is read as the mark too, `250,00` → 250; `1.150` is 1.15) or `,` (Brazilian: dots group thousands, `1.150,50` → 1150.5, `1.150` → 1150). A leading currency sign (`R$ `) is skipped either way. A value that does not read is left out of its record; `ponte check` counts such rows and warns when the values are spelt the other way.',
    examples: [',']
  })),
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

const VALUE_ONLY = { Value: ValueUnion }

export const Value = Type.Cyclic(VALUE_ONLY, 'Value')

/** The definitions a nested value's or condition's `$ref` names (for whoever walks the schema by path). */
export const VALUE_DEFS = { ...VALUE_ONLY, ...CONDITION_DEFS }

const KeyPart = Type.Union([ColumnName, Type.Object({
  column: about(ColumnName, 'The key column.'),
  type: Type.Optional(about(SqlType, 'Its SQL type (default int): `text` for keys such as `CLN-01`.'))
}, { additionalProperties: false })])

export const Key = Type.Union([KeyPart, Type.Array(KeyPart, { minItems: 2, description: 'A key of several columns: its id is their values joined by `idSeparator`.' })], {
  description: 'The key column (type int unless given), or a list of them.'
})

// Write side (implemented by the booking issue; part of v1 so the format does not break later).
/** The parts of the booked client a write can copy (`{ client: familyFirst }`, `{ client: phone }`). */
export const CLIENT_PARTS = ['name', 'given', 'family', 'familyFirst', 'phone'] as const
/** The booked records besides the client whose name or id a write can copy (`{ service: name }`). */
export const BOOKED_LOOKUPS = ['service', 'professional', 'location', 'healthInsurance'] as const

/** `{ service: name }`: a column copying the booked lookup's name, id, or a column of its row. */
function bookedLookup<K extends typeof BOOKED_LOOKUPS[number]> (ref: K) {
  const part = Type.Union([Type.Literal('name'), Type.Literal('id'), Type.Object({
    column: about(ColumnName, `A column of the ${ref}'s own table, copied as it is stored (Open Dental's \`appointmenttype.Pattern\`), read by the booked id in the booking's transaction.`, ['Pattern'])
  }, { additionalProperties: false })], { description: `The booked ${ref}'s \`name\` (as the mapping reads it), its \`id\`, or \`{ column: … }\`, a column of its row as stored.` })
  return Type.Object({
    ...{ [ref]: part } as Record<K, typeof part>,
    case: Type.Optional(Type.Literal('upper', { description: 'Written upper-cased.' })),
    otherwise: Type.Optional(Type.Union([Literal, Type.Null()], { description: `What is written when the booking names no ${ref}, or the copied column is NULL (default NULL).`, examples: [''] }))
  }, { additionalProperties: false, description: `From the booked ${ref} (OpenEMR's \`pc_title\`: \`{ service: name }\`; Open Dental's \`Pattern\`: \`{ service: { column: Pattern } }\`): written when the appointment is booked. Only under the appointment's \`write.set\` or \`openSlots.claim\`.` })
}

/** A phone write mask: `#`s, one per national digit, between the characters phones are spelt with. */
const PHONE_MASK = '^[-0-9 +()./]*#[-#0-9 +()./]*$'

/** How a phone is written: a named format or a mask (`write.phoneFormat`, and the phone copies). */
function phoneFormat (options: { description: string, examples?: unknown[] }) {
  return Type.Union([Type.Literal('e164'), Type.Literal('digits'), Type.Literal('national'), Type.Literal('masked'), Type.Literal('dashed'), Type.Literal('international'),
    Type.String({ pattern: PHONE_MASK, description: 'A mask: each `#` one digit of the national number, in order, the rest written as it stands.' })], options)
}

const COPIED_PHONE = 'A number of another country is written as `write.foreignPhoneFormat` says; one of the clinic\'s own country a mask cannot spell (another count of digits: a landline under a mobile\'s mask) is written `masked`, the country\'s national format.'

export const WriteValue = Type.Union([
  Type.Object({ value: Type.Union([Literal, Type.Null()], { description: 'A constant written as it is (null writes NULL): `ORIGEM: { value: ponte }`.' }) }, { additionalProperties: false }),
  Type.Object({
    now: Type.Union([Type.Literal('datetime'), Type.Literal('date'), Type.Literal('time')], { description: 'The current date-time, date or time when the row is written (a "created at" column under `set`, a "last changed" one under `update`), on the clock the database stores (`storedIn`, else the clinic\'s).' }),
    storedIn: Type.Optional(Type.String({ minLength: 1, description: 'The IANA zone this one column keeps its stamps in, when not the installation\'s `storedIn` (an `updated_at` in UTC beside local appointment times).', examples: ['UTC'] })),
    format: Type.Optional(about(ValueFormat, 'How the column keeps the stamp, as the clinic\'s own rows spell it: `now: date` in `date` (default), `text` (YYYY-MM-DD), `dmy` (DD/MM/YYYY), `ymd` (text 20260315) or `int` (20260315); `now: datetime` in `datetime` (default), `text` (YYYY-MM-DD HH:MM:SS) or `dmy` (DD/MM/YYYY HH:MM:SS); `now: time` in `time` (default), `text` (HH:MM), `hhmm` (1330) or `minutes`.', ['dmy'])),
    separator: Type.Optional(Type.Union([Type.Literal('/'), Type.Literal('.'), Type.Literal('-')], { description: 'With `format: dmy`, the character between day, month and year (`03.04.2031`). Default `/`.' }))
  }, { additionalProperties: false }),
  Type.Object({ setting: Type.String({ description: 'A value from the installation settings, e.g. `userId`.' }) }, { additionalProperties: false }),
  Type.Object({
    phoneLine: Type.Object({
      mobile: about(Literal, 'The code a mobile number is written with.', ['C']),
      fixedLine: about(Literal, 'The code a fixed-line (landline) number is written with.', ['H']),
      fixedLineOrMobile: Type.Optional(about(Literal, 'The code of a number whose plan does not tell mobiles from landlines (the United States and Canada: every geographic number). Default: `otherwise`.', ['C'])),
      otherwise: about(Literal, 'The code of any other number (toll-free, VoIP, pager, one the phone library cannot place). Required.', ['W'])
    }, { additionalProperties: false, description: 'The code each line of number is written with: `mobile`, `fixedLine`, `otherwise`, and `fixedLineOrMobile` where the plan cannot tell (every geographic +1 number).', examples: [{ mobile: 'C', fixedLine: 'H', otherwise: 'W' }] })
  }, {
    additionalProperties: false,
    description: 'Only in an `after` row of `phones`: the code of the line the written phone is, as the phone library\'s numbering plan for its country places it (`kind: { phoneLine: { mobile: C, fixedLine: H, otherwise: W } }`). Every code must be one the collect\'s `where` accepts, so the phone reads back.'
  }),
  Type.Object({
    phone: phoneFormat({ description: `The written phone in this format, the formats and masks of \`write.phoneFormat\` (\`e164\`: +5511944443333). ${COPIED_PHONE}`, examples: ['e164'] })
  }, {
    additionalProperties: false,
    description: 'Only in an `after` row of `phones`: the phone the row is written with, again, in another format, in a second column of the same row (Tryton\'s `party_contact_mechanism.value_compact: { phone: e164 }` beside `value`).'
  }),
  Type.Object({
    slot: Type.Union([Type.Literal('start'), Type.Literal('end'), Type.Literal('length')], { description: 'Which part of the booked slot: its start, its end or its length.' }),
    format: Type.Optional(about(ValueFormat, 'How `start`/`end` are stored. Default: datetime.')),
    separator: Type.Optional(Type.Union([Type.Literal('/'), Type.Literal('.'), Type.Literal('-')], { description: 'With `format: dmy`, the character between day, month and year (`03.04.2031`). Default `/`.' })),
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
  Type.Object({
    state: Type.Union([Type.Literal(true), Type.Literal('left'), Type.Record(Type.String(), Literal)], {
      description: 'The new state: `true` as the appointment stores it (through the state\'s `map`), or the code written for each state, by interface state (`{ WAITING: Scheduled, CONFIRMED: Confirmed }`), every state given one: where the state is read by `rules`, which have no codes to write (a status history the rules read). `left`: the state the change leaves, only in `write.history.left` (through the state\'s `map`, or `codes`).'
    }),
    codes: Type.Optional(Type.Record(Type.String(), Literal, {
      description: 'With `state: left`: the code written for each state left, by interface state, every state given one (`{ WAITING: SCHEDULED, CONFIRMED: SCHEDULED, CANCELED: CANCELLED }`); needed where the state is read by `rules`.',
      examples: [{ WAITING: 'SCHEDULED', CONFIRMED: 'SCHEDULED', CANCELED: 'CANCELLED' }]
    }))
  }, { additionalProperties: false }),
  Type.Object({
    before: Type.String({ minLength: 1, description: 'Only in `write.history.left`: a column of the appointment\'s own table as it was before the change, read in the change\'s transaction under its lock (`status`, `date_changed`).', examples: ['date_changed'] }),
    otherwise: Type.Optional(Type.String({ minLength: 1, description: 'Another column of the appointment\'s table, taken where `before` was NULL (`date_created` for a `date_changed` never set).', examples: ['date_created'] }))
  }, { additionalProperties: false, description: 'The appointment row as the change found it: `{ before: status }` copies the status the change leaves, `{ before: date_changed, otherwise: date_created }` when that status began. Only in `write.history.left`.' }),
  Type.Object({
    after: Type.String({ minLength: 1, description: 'Only in `write.history.after` and `write.log`: a column of the appointment\'s own table as the change (or the booking) left it, read in its transaction after its own write (`AptStatus`, `Pattern`).', examples: ['AptStatus'] })
  }, { additionalProperties: false, description: 'The appointment row as the change left it: Open Dental\'s `histappointment` copies every column of `appointment` after each change, its creation included. Only in `write.history.after` and `write.log` (Open Dental\'s `securitylog.FKey: { after: AptNum }`).' }),
  Type.Object({
    event: Type.Object({
      create: Type.Optional(about(Literal, 'Written for the booking (an insert, or the claim of an open slot).', [0])),
      state: Type.Optional(about(Literal, 'Written for a state change (PATCH …/state).', [1])),
      reschedule: Type.Optional(about(Literal, 'Written for a reschedule (PATCH …/time), whatever its state.', [1]))
    }, { additionalProperties: false, minProperties: 1, description: 'The code written for each change the history\'s `on` lists, every one given a code (Open Dental\'s `HistApptAction`: `{ create: 0, state: 1, reschedule: 1 }`).', examples: [{ create: 0, state: 1, reschedule: 1 }] })
  }, { additionalProperties: false, description: 'Only in `write.history.left` and `after`, and `write.log`: a code saying which change added the row (Created, Changed).' }),
  Type.Object({
    client: Type.Union([Type.Literal('name'), Type.Literal('given'), Type.Literal('family'), Type.Literal('familyFirst'), Type.Literal('phone')], { description: 'Which part of the booked client, as the mapping reads it at booking time: `name` (the whole name), `given`, `family`, or `familyFirst` (family, `separator`, given: OSCAR\'s `SMITH,MARY ANN`); or `phone`, the client\'s phone (the one GET /clients/{id} answers as `phone`) written in `format`. Given and family are the columns of a `{given} {family}` name template (the family from its `split.familyPrefix` or `split.family` column on, else the last column), else the name cut by its `split` rule.' }),
    separator: Type.Optional(Type.String({ minLength: 1, maxLength: 5, description: 'With `familyFirst`, what goes between family and given. Default `, `.', examples: [','] })),
    case: Type.Optional(Type.Literal('upper', { description: 'Written upper-cased (`SMITH,MARY ANN`).' })),
    format: Type.Optional(phoneFormat({ description: `With \`client: phone\`, how the copy is written: the formats and masks of \`write.phoneFormat\` (\`'(##) #####-####'\`). Default: the client's \`write.phoneFormat\`, else digits. ${COPIED_PHONE}`, examples: ['(##) #####-####'] })),
    otherwise: Type.Optional(Type.Union([Literal, Type.Null()], { description: 'With `client: phone`, what is written when the client has no phone the mapping can read (default NULL).', examples: [''] }))
  }, { additionalProperties: false, description: 'A copy of the booked client\'s name or phone in the appointment row (OSCAR\'s `appointment.name` on its day sheet, a Delphi agenda\'s `FONEPACIENTE`): written when the appointment is booked (insert or open-slot claim). Only under the appointment\'s `write.set` or `openSlots.claim`; a later PATCH /clients does not rewrite copies.' }),
  bookedLookup('service'), bookedLookup('professional'), bookedLookup('location'), bookedLookup('healthInsurance'),
  Type.Object({
    hours: about(ColumnName, 'A column of the working-hours row covering the booked start (`availability.weekly`, `availability.dated`), or of a join declared on that source (`op.OperatoryNum`). With both sources declared it is read from each, so each must have it (a join of that name on each).', ['SALA', 'op.OperatoryNum']),
    otherwise: Type.Optional(Type.Union([Literal, Type.Null()], { description: 'What is written when no working-hours row covers the booked start (a booking without a professional), or the covering row\'s column is NULL. Default NULL.', examples: [0] })),
    type: Type.Optional(about(SqlType, 'The SQL type the value binds with (SQL Server). Default: int when `otherwise` is a number, else text; the value is fitted to its column either way.', ['int']))
  }, {
    additionalProperties: false,
    description: 'A copy of the working-hours row covering the booked start (a Delphi agenda\'s `AGENDA.SALA` from `HORARIO.SALA`; Open Dental\'s `appointment.Op` from the schedule\'s operatory): written when the appointment is booked and again on every reschedule, from the row covering the new start, read in the write\'s transaction. The covering row is the one whose window holds the start, as /availability decides it (a weekly row before a dated one; among overlapping rows of one source, the earliest start, then earliest end, then the lowest value; `ponte check` warns of such overlaps). Only under the appointment\'s `write.set`.'
  })
], { title: 'WriteValue', description: 'What a write puts in a column Ponte fills on its own: a constant, now, a setting, part of the booked slot, the new key, a UUID, an identifier with a check character, the new state (or the one left), a column of the appointment as it was before the change (or as it left it), the change made, the written phone in another format, part of the booked client\'s name, the client\'s phone, the booked service, professional, location or health insurance, or a column of the working-hours row covering the booked time.' })

// One description for `generate` in every form: an editor shows it whichever form is typed.
const GENERATE = 'How the key is made: `identity`, the database makes it (IDENTITY, AUTO_INCREMENT, SERIAL) and Ponte reads it back; `uuid`, a new v4 UUID (lower-case, with hyphens) bound into the key column, any identity column of the row left to the database (OpenMRS\'s `uuid` beside its integer id); `max`, the largest key plus one, under a lock in the insert\'s transaction (what many legacy programs do); `sequence`, the next value of a database sequence; `keyTable`, a counter row in a table of counters, read and advanced in the insert\'s transaction.'

export const KeyGeneration = Type.Union([
  Type.Object({ generate: Type.Literal('identity', { description: GENERATE }) }, { additionalProperties: false }),
  Type.Object({ generate: Type.Literal('uuid', { description: GENERATE }) }, { additionalProperties: false }),
  Type.Object({
    generate: Type.Literal('max', { description: GENERATE }),
    column: Type.Optional(Type.String({ description: 'Only with `per`, in an `after` row: the column counted (`seq`), which with `per` is the row\'s key.', examples: ['seq'] })),
    per: Type.Optional(Type.String({ description: 'Only in an `after` row: a column of the row filled from the row it hangs from (one of its join\'s `on` columns, `patient_id`): `column` counts 1, 2, 3 per value of it, the largest for that parent plus one, read in the insert\'s transaction with the parent bound as a parameter.', examples: ['patient_id'] })),
    prefix: Type.Optional(Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9./-]+$', description: 'A text key\'s letters before its number (`M` in `M001204`): only keys starting with it are counted, and the next is written with it. Letters, digits, `.`, `/` and `-`.', examples: ['M'] })),
    digits: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'A text key\'s number left-padded with zeros to this many digits (`M001205` with 6).', examples: [6] }))
  }, { additionalProperties: false }),
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
], { description: 'How a new row\'s key is made: `identity`, `uuid`, `max`, a `sequence`, or a `keyTable` counter. Without it, the key is the database\'s (identity).' })

export const ExtraRow = Type.Object({
  join: Type.Optional(Type.String({ description: 'A join of the resource: a row of its table is inserted, the columns of its `on` shared with the row it hangs from.' })),
  phones: Type.Optional(Type.Integer({ minimum: 0, description: 'An entry of `phones` that collects from a child table: a row holding the phone is inserted there.' })),
  key: Type.Optional(about(KeyGeneration, 'How this row\'s key is made (as the resource\'s `write.key`); an `after` row keyed by its parent and a number counted per parent takes `{ generate: max, column: seq, per: patient_id }`.')),
  set: Type.Optional(Type.Record(Type.String(), WriteValue, { description: 'Other columns of the row.' })),
  update: Type.Optional(Type.Record(Type.String(), WriteValue, {
    minProperties: 1,
    description: 'Only for a client\'s `join` row: columns written on the row whenever PATCH /clients/{id} changes a field kept in it, in the same statement (a last-change stamp of the row itself: `person_name.date_changed`, `party_party.write_date`). A row a PATCH adds is written with `set` instead.',
    examples: [{ date_changed: { now: 'datetime' }, changed_by: { setting: 'userId' } }]
  }))
}, { additionalProperties: false, title: 'ExtraRow', description: 'One more row written with the resource\'s, in the same transaction: give `join` or `phones`. A `before` row\'s `key` makes the key its join\'s `on` shares (a person\'s id, which the patient row takes as its own).' })

const HISTORY_KEY_COLUMN = Type.String({ minLength: 1, description: 'The history row\'s own key column (`CODIGO`).', examples: ['CODIGO'] })
const HISTORY_KEY_TYPE = Type.Optional(about(SqlType, 'Its SQL type (default int): `text` for a `uuid` or a prefixed `max`.'))

/** A history row's own key: `column` and `type` beside any of `write.key`'s generators (but `max` counted per parent). */
const HistoryRowKey = Type.Unsafe<Static<typeof KeyGeneration> & { column: string, type?: Static<typeof SqlType> }>(Type.Union(KeyGeneration.anyOf.map((g) => {
  const { per: _per, column: _column, ...rest } = g.properties as Record<string, TSchema>
  return Type.Object({ column: HISTORY_KEY_COLUMN, type: HISTORY_KEY_TYPE, ...rest }, { additionalProperties: false })
}), {
  description: 'How each history row\'s own key is made, as `write.key` makes the appointment\'s, in the same transaction: `column` (and `type`) with `generate: identity`, `uuid`, `max`, `sequence` or `keyTable`. A Delphi desk numbering its log from a counter row takes `{ column: CODIGO, generate: keyTable, table: CONTADORES, nameColumn: TABELA, name: AGENDA_LOG, valueColumn: ULTIMO }`: each row written bumps the counter, so the desk\'s next number is free. Without it the database makes the key (an identity, a default); `ponte check` warns where the key column has neither, or where a counter row is named like the history table.',
  examples: [{ column: 'CODIGO', generate: 'keyTable', table: 'CONTADORES', nameColumn: 'TABELA', name: 'AGENDA_LOG', valueColumn: 'ULTIMO' }]
}))

/** The changes that add a history or log row. */
const CHANGES = Type.Union([Type.Literal('create'), Type.Literal('state'), Type.Literal('reschedule')])

export const StatusHistory = Type.Object({
  table: about(TableName, 'The status-history table.'),
  key: Type.String({ description: 'The column holding the appointment\'s key.' }),
  rowKey: Type.Optional(HistoryRowKey),
  current: Type.Optional(about(Where, 'Which of an appointment\'s history rows is the current one (`{ column: DT_FIM, isNull: true }`), closed by `close`. Without `current` and `close`, rows are only added: the latest decides.')),
  open: Type.Optional(Type.Record(Type.String(), WriteValue, { description: 'Columns of the row opened for the new state (on booking too): the state\'s code (`status: { state: true }`, or a code per state where the state rules read this row), a date (`changed_at: { now: datetime }`). Give `open`, `left` or both.' })),
  close: Type.Optional(Type.Record(Type.String(), WriteValue, { minProperties: 1, description: 'Columns set on the current row(s) when the state changes (at least one: a `close` setting nothing would leave every row current). Given with `current` and `open`.' })),
  left: Type.Optional(Type.Record(Type.String(), WriteValue, {
    minProperties: 1,
    description: 'Columns of a row added for what a change leaves behind, before the change, in its transaction (never on booking): the state left (`status: { state: left }`), the appointment\'s columns as they were (`start_date: { before: date_changed, otherwise: date_created }`), when it ended (`end_date: { now: datetime }`). OpenMRS\'s status history holds the previous status; OSCAR\'s `appointmentArchive` the whole row as it was.',
    examples: [{ status: { state: 'left' }, start_date: { before: 'date_changed', otherwise: 'date_created' }, end_date: { now: 'datetime' } }]
  })),
  after: Type.Optional(Type.Record(Type.String(), WriteValue, {
    minProperties: 1,
    description: 'Columns of a row added after each change `on` lists, the booking included (`create`), in its transaction: the appointment\'s columns as the change left it (`AptStatus: { after: AptStatus }`), which change it was (`HistApptAction: { event: { create: 0, state: 1, reschedule: 1 } }`), when (`HistDateTStamp: { now: datetime }`). Open Dental\'s `histappointment`.',
    examples: [{ AptStatus: { after: 'AptStatus' }, HistApptAction: { event: { create: 0, state: 1, reschedule: 1 } }, HistDateTStamp: { now: 'datetime' } }]
  })),
  on: Type.Optional(Type.Array(CHANGES, {
    minItems: 1,
    uniqueItems: true,
    description: 'With `left` or `after`: which changes add their row. `create`: the booking (an insert, or the claim of an open slot), `after` rows only (a booking leaves nothing behind); `state`: every state change (PATCH …/state, and a reschedule that moves the state, `states.onReschedule`); `reschedule`: every PATCH …/time. One row of each per change. Default: `[state]` for `left`, `[create, state, reschedule]` for `after`.',
    examples: [['state', 'reschedule'], ['create', 'state', 'reschedule']]
  }))
}, { additionalProperties: false, title: 'StatusHistory', description: 'A status-history table: each state change (a booking too) opens a new row (`open`), in the same transaction, after closing the `current` one where given; and/or each change adds a row recording what it leaves (`left`: the previous state, the row as it was), or what it made (`after`: the row as the change left it, the booking included). The state rules may read the latest row through a join of the appointment (`first` by its date, then its key, both descending).' })

export const LogRow = Type.Object({
  table: about(TableName, 'The table the row goes to (Open Dental\'s `securitylog`).', ['securitylog']),
  on: Type.Optional(Type.Array(CHANGES, {
    minItems: 1,
    uniqueItems: true,
    description: 'Which changes add the row: `create`, the booking (an insert, or the claim of an open slot); `state`, every state change (PATCH …/state, and a reschedule that moves the state); `reschedule`, every PATCH …/time. One row per change. Default: `[create]`.',
    examples: [['create', 'state']]
  })),
  rowKey: Type.Optional(HistoryRowKey),
  set: Type.Record(Type.String(), WriteValue, {
    minProperties: 1,
    description: 'The row\'s columns: the appointment as the change left it (`FKey: { after: AptNum }`, `PatNum: { after: PatNum }`), which change it was (`{ event: { create: 25, state: 26 } }`), constants, `now` stamps, settings, the state entered (`{ state: true }`).',
    examples: [{ PermType: { value: 25 }, PatNum: { after: 'PatNum' }, FKey: { after: 'AptNum' }, LogDateTime: { now: 'datetime' }, UserNum: { setting: 'userId' }, LogText: { value: 'Ponte booking' } }]
  })
}, { additionalProperties: false, title: 'LogRow', description: 'One more row a change of the appointment writes (an audit or security log), in its transaction right after the change\'s own write, rolled back with it: the booking\'s insert or claim, a state change, a reschedule, as `on` says.' })

export const StateRow = Type.Object({
  join: Type.String({ description: 'A join of the appointment (under `joins`, on the appointment\'s key alone) whose row records the state: the row its state rules read (`confirmation.value`).', examples: ['confirmation'] }),
  states: Type.Array(Type.String(), { minItems: 1, uniqueItems: true, description: 'The interface states the row records: entering one writes it (a new row, after clearing any the join finds), entering any other clears it.', examples: [['CONFIRMED']] }),
  set: Type.Optional(Type.Record(Type.String(), WriteValue, { description: 'Columns of the row written besides the appointment\'s key and what the join\'s `where` requires (`eq`, `isNull: true`, the first of `in`), which are filled from it.', examples: [{ value: { value: 'true' }, date_created: { now: 'datetime' } }] })),
  clear: Type.Optional(Type.Record(Type.String(), WriteValue, {
    description: 'How the row is cleared on leaving its states: these columns are set on the rows the join finds (`{ voided: { value: 1 } }`), which must then fail the join\'s `where`. Default: the rows are deleted.',
    examples: [{ voided: { value: 1 }, date_voided: { now: 'datetime' } }]
  }))
}, { additionalProperties: false, title: 'StateRow', description: 'A row of another table recording a state the status column cannot hold (a `confirmed` attribute of the appointment), written and cleared with each state change in its transaction.' })

/** Request fields a mapping may declare as accepted but not stored (`write.ignore`). */
export const IGNORABLE = ['phone', 'email', 'cpf', 'birthday', 'healthInsurance', 'location', 'professional', 'service', 'plan'] as const

export const WriteSpec = Type.Object({
  key: Type.Optional(about(KeyGeneration, 'How a new row\'s key is made. Default: the database makes it (identity).', [{ generate: 'max' }])),
  set: Type.Optional(Type.Record(Type.String(), WriteValue, { description: 'Columns an insert fills besides the mapped fields.' })),
  phoneFormat: Type.Optional(phoneFormat({
    description: 'How a phone of `phone.defaultCountry` is stored when written: `e164` (+5511987654321), `digits` and `national` (the national number: 11987654321, 9055550102), `masked` (Brazil\'s mask (11) 98765-4321, elsewhere the country\'s national format: (905) 555-0102, 020 7946 0018), `dashed` (that format\'s groups joined by hyphens: 905-555-0102, 020-7946-0018), `international` (the country code and the international format\'s groups: +351 912 345 678), or a mask of `#`s, one per digit of the national number, between digits, spaces and `+ ( ) - . /` (Open Dental\'s `(###)###-####`: (503)555-0142; `###.###.####`); a phone search looks the mask\'s spelling up first, and a number with another count of digits is refused (400, naming phone). A number of another country is stored as `foreignPhoneFormat` says. Default: digits.',
    examples: ['masked', '(###)###-####']
  })),
  phone: Type.Optional(Type.String({
    description: 'Which entry of `phones` POST /clients writes the phone to (the first by default): a plain column among them (`cell_phone`). The other plain columns keep their order for `allPhones`, each number of it not already written going to the next. Only for a client.',
    examples: ['cell_phone']
  })),
  foreignPhoneFormat: Type.Optional(Type.Union([Type.Literal('e164'), Type.Literal('international')], {
    description: 'How a phone of another country than `phone.defaultCountry` is stored when written; it always keeps its country code, or it would read back as a number of the clinic\'s own country: `e164` (+447911123456) or `international` (+44 7911 123456, as desks type foreign numbers). Default: e164.',
    examples: ['international']
  })),
  cpfFormat: Type.Optional(Type.Union([Type.Literal('digits'), Type.Literal('masked')], { description: 'How a CPF is stored when written: `digits` (12345678909) or `masked` (123.456.789-09). Default: digits.' })),
  states: Type.Optional(Type.Record(Type.String(), Type.Record(Type.String(), WriteValue), {
    description: 'Columns written to put an appointment in each interface state.'
  })),
  reschedule: Type.Optional(Type.Record(Type.String(), WriteValue, { description: 'Extra columns written on a reschedule.' })),
  update: Type.Optional(Type.Record(Type.String(), WriteValue, {
    description: 'Columns written by every change Ponte makes to an existing row, besides what the change itself writes: PATCH /clients/{id} for a client; each state change, reschedule and open-slot claim for an appointment (a "last changed" stamp: `lastUpdateDate: { now: datetime }`). An insert writes `set` instead: list a stamp in both to fill it on creation too.',
    examples: [{ lastUpdateDate: { now: 'datetime' }, lastUpdateUser: { setting: 'userId' } }]
  })),
  slot: Type.Optional(Type.Object({
    join: Type.String({ description: 'The appointment\'s join whose row is the booked time slot (its start, and the refs read through it, come from there).' }),
    capacity: Type.Optional(Type.Union([
      Type.Integer({ minimum: 1, maximum: 1000 }),
      Type.Literal('minutes', { description: 'By minutes (OpenMRS): a slot takes appointments while their services\' durations fit in its length; one whose service has no duration uses the whole slot.' }),
      Type.Object({
        column: about(ColumnName, 'The column holding each slot\'s capacity.')
      }, { additionalProperties: false, description: 'A column of the slot (`slot.max_patients`) or of a join below it (`block.max_patients`); NULL counts as 1, 0 closes the slot.' })
    ], {
      description: 'How many appointments one slot takes (default 1): /availability offers it while fewer hold it (by the same rule as a taken slot), booking refuses it (409) once full. A number for every slot, `{ column }` per slot, or `minutes`: the slot\'s length (its window\'s `interval`) shared by its appointments\' service durations (two 15-minute visits in a 30-minute slot).'
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
  before: Type.Optional(Type.Array(ExtraRow, { description: 'Rows inserted before the resource\'s own, in order (a person before the patient). Only under the client\'s `write` (refused on the appointment, which never writes them).' })),
  after: Type.Optional(Type.Array(ExtraRow, { description: 'Rows inserted after it, in order (names, identifiers, phone attributes). Only under the client\'s `write` (refused on the appointment, which never writes them; see `history`).' })),
  history: Type.Optional(StatusHistory),
  log: Type.Optional(Type.Array(LogRow, { minItems: 1, description: 'Other rows each change of an appointment writes, copying the appointment as the change left it (Open Dental\'s `securitylog` row per booking). Only under the appointment\'s `write`.' })),
  stateRows: Type.Optional(Type.Array(StateRow, { minItems: 1, description: 'Rows recording a state where the status column cannot (OpenMRS has no confirmed status): each is a join of the appointment, written on entering its `states` and cleared on leaving them; the state rules read it back.' })),
  ignore: Type.Optional(Type.Array(Type.Union(IGNORABLE.map((f) => Type.Literal(f))), {
    uniqueItems: true,
    description: 'Request fields this installation accepts without storing them (POST /clients: phone, email, cpf, birthday, healthInsurance, location; POST /appointments: professional, service, location, healthInsurance, plan). The answer names them in its `Ponte-Ignored-Fields` header. Without this, a field the mapping reads but cannot write is refused with 501 naming it, on POST as on PATCH; a field the mapping does not map at all is always ignored (and named in the header).'
  })),
  refs: Type.Optional(Type.Object(Object.fromEntries(['professional', 'service', 'location', 'healthInsurance', 'plan', 'client'].map((r) => [r, Type.Optional(Type.Object({
    firstOf: Type.Optional(Type.Union([
      Type.String({ description: 'The appointment\'s join (under `joins`, hanging from the appointment row by one column) whose row the booking points at: the first (lowest `on` column) of its rows holding the id sent. E.g. `location: sala.ID_UNIDADE` with `firstOf: sala` books unit 3 into the unit\'s first room; `client: pp.uuid` (`pp: { table: person, on: { patient_id: person_id } }`) with `firstOf: pp` writes the integer `patient_id` of the person whose uuid was sent, a uuid naming no client refused (400 naming client, as any unknown client id) with nothing written. For `client`, only this short form.' }),
      Type.Object({
        join: Type.String({ description: 'The appointment\'s join, as in the short form.' }),
        owner: Type.String({ description: 'The joined table\'s column holding the booked client\'s id: only the client\'s own rows are taken (the first of them holding the id sent); a client with none is refused (409 naming the ref), and the booking reads back refused unless the row it points at is the client\'s.' })
      }, { additionalProperties: false, description: 'A join whose rows belong to patients (a coverage card, an insurance link row): `{ join: cov, owner: patient_id }` books the client\'s own row, never another patient\'s. `ponte check` reports a `firstOf` without `owner` on a table with a column referring to the client.', examples: [{ join: 'cov', owner: 'patient_id' }] })
    ], { description: 'Which joined row a booking points at: the join\'s alias (the first row holding the id sent), or `{ join, owner }` for a join whose rows belong to patients (the booked client\'s own row).' })),
    fromClient: Type.Optional(Type.Union([
      Type.String({ description: 'A column of the client\'s table, or `alias.COLUMN` of a join under the client\'s `joins`, holding the client\'s own value.' }),
      Type.Object({
        column: Type.String({ description: 'As the short form: a column of the client\'s row or of a client join.' }),
        nullIf: Type.Optional(Type.Array(Literal, { description: 'Stored values meaning the client has none (Open Dental\'s 0): the booking then takes `otherwise`, or none.', examples: [[0]] })),
        owned: Type.Optional(Type.Boolean({ description: 'true: a ref sent must be one of the client\'s own too (any row the client\'s joins reach, `first` aside), and the booking stores that row\'s value; another is refused (409 naming the field, nothing written).' }))
      }, { additionalProperties: false, description: 'The column, the values meaning none, and whether a ref sent must be the client\'s own.', examples: [{ column: 'sub.PlanNum', nullIf: [0], owned: true }] })
    ], { description: `Only for healthInsurance and plan. What a booking takes when the caller sends no ${r}: the booked client's own, read from the client's row or a row hanging from it, inside the booking's transaction. The value is what the appointment's column stores: the ${r} id, or with \`firstOf\` the joined row's key (the plan whose carrier is read). It is checked as a sent one would be (409 naming the field when the client's own is refused); a client with none takes \`otherwise\`, else nothing. Where the appointment reads the ${r} through a join without \`firstOf\` (the patient's own row), nothing is stored: the appointment's is the client's own, and a booking sending another is refused (409 naming the field). \`ponte check\` books without the ${r} and compares the stored value with the client's own.`, examples: ['CODCONVENIO', { column: 'sub.PlanNum', nullIf: [0], owned: true }] })),
    otherwise: Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Integer()], { description: `The ${r} id a booking takes when the caller sends no ${r} (a clinic database requiring a visit type), or with \`fromClient\` when the client has none: it is checked, stored and read back as if sent${r === 'service' ? ', and its duration is the appointment\'s length (and the length /availability offers without `?service=`)' : ''}. \`ponte check\` reports an id that names no ${r}.`, examples: [7] }))
  }, { additionalProperties: false, minProperties: 1, description: `How a booking writes its ${r}: through a join (\`firstOf\`), and which ${r} it takes when the caller sends none (\`fromClient\`, the client's own; \`otherwise\`, a constant).` }))])), {
    additionalProperties: false,
    description: 'How to write an appointment ref: one read through a join (`location: sala.ID_UNIDADE`) is read-only until `firstOf` says which joined row to point at (booking with it is refused (501), unless it is listed under `ignore`; never valid when the join\'s column is also where another field is written: the patient\'s id, the slot); `otherwise` names the ref a booking takes when the caller sends none (refused at load for a ref read through the slot of a slot-table booking, `write.slot`: the slot found by the time decides it).'
  })),
  nonTransactional: Type.Optional(Type.Literal('accept', {
    description: 'Writes of this resource may change MariaDB/MySQL tables whose engine cannot roll back (MyISAM, Aria; the catalogue\'s `information_schema.ENGINES.TRANSACTIONS` says which): they then run without Ponte\'s guarantee that a refused write (a 501 after the read-back, a failed step) leaves nothing behind, since each statement is kept the moment it runs. Without it, a write that would change such a table is refused (501, naming the table and its engine) before it writes anything. `ponte check` never probes such a table either way; convert the tables to InnoDB where the clinic\'s program allows it instead.',
    examples: ['accept']
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

/** Change detection of appointments made in the clinic's own program (src/events/). */
export const Changes = Type.Object({
  window: Type.Optional(Type.Object({
    daysBefore: Type.Optional(Type.Integer({ minimum: 0, maximum: 31, description: 'Days before today (on the clinic\'s clock) whose appointments are watched. Default: 1 (yesterday).', examples: [1] })),
    daysAfter: Type.Optional(Type.Integer({ minimum: 0, maximum: 366, description: 'Days after today whose appointments are watched. Default: 90.', examples: [90] }))
  }, { additionalProperties: false, description: 'The days watched, from today on the clinic\'s clock: each poll reads their appointments with one range statement (the one `GET /appointments` runs) and compares each with what the previous poll saw. A change outside the window is not seen until it enters it.' })),
  pollSeconds: Type.Optional(Type.Number({ minimum: 0.1, maximum: 3600, description: 'Seconds between the end of one poll and the start of the next. Default: 30. A change is in `GET /events` at most about this long after it is made (writes through Ponte at once).', examples: [30] })),
  marker: Type.Optional(Type.Object({
    column: Type.String({ minLength: 1, description: 'A column of the appointment\'s table that grows on every change: a datetime the clinic\'s program (or a trigger, or MariaDB\'s automatic timestamp) sets on every update, a SQL Server `rowversion`, or, with `inserts: true`, a key that only grows. Index it: each poll seeks it.', examples: ['updated_at'] }),
    type: Type.Optional(Type.Union([Type.Literal('datetime'), Type.Literal('int'), Type.Literal('rowversion')], { description: 'What the column holds: `datetime` (default; compared from the last one seen, that second included), `int` (default with `inserts: true`), or `rowversion` (SQL Server, compared as binary).' })),
    inserts: Type.Optional(Type.Boolean({ description: 'The column grows on inserts only (a monotonic key): the marker finds new bookings between window passes, and updates wait for the next window pass. Default: false.' })),
    windowEvery: Type.Optional(Type.Integer({ minimum: 1, maximum: 10000, description: 'Every how many polls the whole window is read (deletions, and what the marker cannot see: a change that did not move it). Default: 10; the first poll always reads it.', examples: [10] }))
  }, { additionalProperties: false, description: 'A change marker: each poll reads only the rows whose marker is at or past the last one seen (one statement seeking the column), compares them with their fingerprints, and reads the whole window only every `windowEvery` polls. `ponte check` reports a marker that does not move when a row is updated.' }))
}, { additionalProperties: false, description: 'Detect changes made in the clinic\'s own program (bookings, cancellations, moves at the desk) and serve them as events (`GET /events`). Without it, `GET /events` answers 404 (not mapped).' })

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
    duration: Type.Optional(about(Value, 'The length added to the start (with `unit`, minutes by default): a column of the appointment (written on booking), a joined row\'s column (`med.INTERVALO`, the doctor\'s slot length) or a constant (`{ value: 20 }`), both only read, or `{ minutes: { from, to } }`.', [{ column: 'DURACAO', unit: 'minutes', nullIf: [0] }, { value: 20 }]))
  }, { additionalProperties: false, description: 'When the appointment ends: one of `datetime`, `hour`, or `duration` (with `unit`). Without it, appointments are answered without an end hour. An `hour` earlier than the start\'s, or a `datetime` on the next date, is the next day\'s (23:00–00:30: `endHour` 00:30); a `datetime` on the start\'s date before it is no end.' })),
  state: about(Value, 'The appointment\'s state in the interface\'s words (WAITING, CONFIRMED, CANCELED, MISSED, DONE, or `states.values`): usually a `map` of stored codes or `rules`.', [{ column: 'SITUACAO', map: { A: 'WAITING', C: 'CONFIRMED', X: 'CANCELED' } }]),
  slotHolding: Type.Optional(Type.Union([Condition, Type.Array(Condition)], {
    description: 'Rows of the table that hold a slot without being an appointment (a blocked row with no patient, a lunch, a meeting): never listed, never offered, whatever their state. A list means all of them.'
  })),
  openSlots: Type.Optional(Type.Object({
    free: Type.Union([Condition, Type.Array(Condition)], {
      description: 'Which rows are open slots (all of these conditions hold), tested on columns of the appointment table itself: `[{ column: patient, isNull: true }, { column: state, eq: free }]`. Such rows are never listed as appointments; /availability offers each one, from its start to its end, and nothing else.'
    }),
    onCancel: Type.Union([Type.Literal('release'), Type.Literal('reopen'), Type.Literal('keep')], {
      description: 'What a move into a `states.free` state (a cancellation) does to the claimed row: `release` writes it free again (client cleared, `release` columns), so the appointment is gone and its slot offered; `reopen` leaves it cancelled and inserts a new free row at the same time (same professional and location); `keep` leaves it cancelled and the slot closed (the clinic reopens it by hand). A reschedule is no cancellation: whatever `onCancel` says, the appointment swaps times with the new slot\'s free row, so it keeps its id and its old time is offered again.'
    }),
    claim: Type.Optional(Type.Record(Type.String(), WriteValue, {
      description: 'Columns a claim also writes (a last-change stamp), besides the client, the refs sent and the initial state\'s columns.'
    })),
    release: Type.Optional(Type.Record(Type.String(), WriteValue, {
      description: 'Columns that make a row free again (`release`, and the new row of `reopen`). Default: read from `free` (`eq` → that value, `isNull: true` → NULL, `in` → its first value); needed where `free` says something else. The client\'s column is always cleared.'
    }))
  }, {
    additionalProperties: false,
    description: 'Open slots kept as rows of the appointment table (GNU Health\'s `free` appointments): /availability offers the free rows, and a booking claims one: a single statement writing the client, state and refs to that row only while it is still free (a booking that loses the race is a 409). Not with `write.slot`, nor with `availability.weekly`/`dated` (the free rows are the working hours; blocks still apply).'
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
  write: Type.Optional(about(WriteSpec, 'How bookings, state changes and reschedules are written. Without it, they answer 501.')),
  changes: Type.Optional(Changes)
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
  bookable: Type.Optional(about(Where, 'Clients who may be booked (all of these conditions hold), tested in the booking\'s transaction before anything is written: POST /appointments for any other client is a 409 naming `/body/client`. Unlike `where`, a client it leaves out is still a client: read by id, found by search, shown on their appointments, which can still be rescheduled and moved between states. Default: every client.', [{ column: 'patient_status', notIn: ['IN', 'DE'] }])),
  write: Type.Optional(about(WriteSpec, 'How POST /clients and PATCH /clients/{id} are written. Without it, they answer 501.'))
}, { additionalProperties: false, description: 'The patients: the table, and where their name, CPF, phones… are.' })

const Lookup = (what: string, fields: Record<string, string>, whats = `${what}s`) => Type.Object({
  ...Table,
  fields: Fields(fields),
  // A disabled one is not offered for new bookings, and is still shown on the past appointments that name it.
  enabled: Type.Optional(about(Value, `Whether the ${what} takes new bookings (a yes/no column: \`trueValues\`, \`invert\`). A disabled one is not offered for new bookings and is still shown on past appointments. Default: enabled.`, [{ column: 'INATIVO', trueValues: ['S'], invert: true }]))
}, { additionalProperties: false, description: `The ${whats}: a lookup the interface lists and filters.` })

/**
 * A lookup kept as no table of its own, only as the text of a column of other rows: another
 * lookup's (OpenEMR's `users.specialty`), related to the rows holding them; the client's
 * (OSCAR's `demographic.hc_type`); or a table's (OpenMRS's `person_attribute` of a type).
 */
/** The name a stored value is answered by (`ON` → `OHIP`); a value not listed is its own name. */
const Names = (what: string) => Type.Record(Type.String(), Type.String({ minLength: 1 }), {
  description: 'The name each stored value is answered by, where the value is a code (`ON: OHIP`); the id stays the value. A value not listed is named by itself.',
  examples: [{ ON: 'OHIP', QC: 'RAMQ' }]
})

const ValuesOf = (what: string, whats: string) => Type.Object({
  valuesOf: Type.Union([
    Type.Object({
      resource: Type.Union([Type.Literal('professional'), Type.Literal('location'), Type.Literal('service'), Type.Literal('healthInsurance'), Type.Literal('specialty'), Type.Literal('client')], { description: `The resource whose rows hold the ${what} as text: another lookup, or \`client\` (a patient's own ${what} on the patient's row).` }),
      column: about(ColumnName, `The column of that resource's table (or of one of its joins) holding each row's ${what}.`, ['specialty']),
      names: Type.Optional(Names(what))
    }, {
      additionalProperties: false,
      description: `The ${whats} are the distinct non-blank values of a column of another resource's table (its \`where\` and \`joins\` apply): each value is one ${what}, its id the value itself (case counts; URL-encoded in paths) and its name the value trimmed; NULL and blank are none. Of another lookup, related to the rows of \`resource\` holding it, for the filters both ways (\`/professionals?specialty=\`, \`/specialties?professional=\`) and a professional's \`specialties\`, as a \`relations\` entry would relate them (so none may); of \`client\`, related to no lookup. \`ponte check\` reads the column as the ${whats}, its repeats being no key problem.`,
      examples: [{ resource: 'professional', column: 'specialty' }, { resource: 'client', column: 'hc_type' }]
    }),
    Type.Object({
      table: about(TableName, `A table of rows each holding a ${what} as text (a patient's attribute rows), with no key of its own for the ${what}.`, ['person_attribute']),
      column: about(ColumnName, `The column (or \`alias.COLUMN\` of a join) holding each row's ${what}.`, ['value']),
      where: Type.Optional(about(Where, `The rows holding a ${what} (an attribute's type, not voided). Default: every row.`, [{ all: [{ column: 'person_attribute_type_id', eq: 7 }, { column: 'voided', eq: 0 }] }])),
      joins: Type.Optional(Joins),
      names: Type.Optional(Names(what))
    }, {
      additionalProperties: false,
      description: `The ${whats} are the distinct non-blank values of a column of a table of their own rows (attribute rows of a type, not voided): each value is one ${what}, its id and name as above; related to no lookup. \`ponte check\` reads the column as the ${whats}, its repeats being no key problem.`,
      examples: [{ table: 'person_attribute', column: 'value', where: { all: [{ column: 'person_attribute_type_id', eq: 7 }, { column: 'voided', eq: 0 }] } }]
    })
  ], { description: `Where the ${whats} are kept as text: a column of another resource's rows (\`resource\`), or of rows of a table (\`table\`, with its \`where\`).` })
}, { additionalProperties: false, description: `The ${whats}, as the values of a column of other rows.` })

/** A lookup with a table of its own, or the values of another's column. */
const LookupOrValues = (what: string, fields: Record<string, string>, whats = `${what}s`) => Type.Union([Lookup(what, fields, whats), ValuesOf(what, whats)], {
  description: `The ${whats}: a lookup the interface lists and filters, with a table of its own or as the distinct values of a column of other rows (\`valuesOf\`).`
})

export const Professional = Lookup('professional', {
  name: 'The professional\'s name. Required.',
  description: 'A presentation of the professional.',
  image: 'A picture\'s URL.',
  expertise: 'What the professional does (an area of practice).',
  register: 'The professional register (council, number and state: `{ template: \'{CONSELHO} {NR_CONSELHO}/{UF_CONSELHO}\' }`).'
})
export const Location = LookupOrValues('location', {
  name: 'The location\'s name.',
  address: 'The street address (a `template` of its parts). Required: where the clinic keeps none, a constant (`{ value: \'One clinic, no address kept\' }`) or the name column. A row whose address reads blank is answered with its name, else its id.',
  city: 'The city.',
  state: 'The state (UF).',
  cep: 'The postal code (CEP).',
  lat: 'Latitude, as a number.',
  long: 'Longitude, as a number.'
})
export const Service = LookupOrValues('service', {
  name: 'The service\'s (procedure\'s) name. Required.',
  price: 'The price, as a number (`divide: 100` for cents).',
  duration: 'How long it takes (`unit` as stored, minutes by default); also the length of its bookings.',
  description: 'What the service is.',
  preparation: 'What the patient must do before it.'
})
export const HealthInsurance = LookupOrValues('health insurance', {
  name: 'The insurer\'s name. Required.',
  color: 'A colour to show it with.'
})
export const Specialty = LookupOrValues('specialty', {
  name: 'The specialty\'s name. Required.',
  description: 'What the specialty covers.',
  cbo: 'Its CBO occupation code.'
}, 'specialties')

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

const weekdayNumbering = (what: string): string => `How ${what} numbers the days: \`0\` (default) Sunday 0 … Saturday 6; \`1\` Sunday 1 … Saturday 7; \`iso\` Monday 1 … Sunday 7.`

/** One stored row standing for many dates (OpenEMR's recurring calendar events). */
export const Repeat = Type.Object({
  kind: about(Value, 'How the row recurs, read as `once` (the row\'s own date only), `every` (every `every` `unit`s), `nth` (the `nth` `weekday` of every `months` months) or `weekdays` (the listed `weekdays` of every `weeks` weeks); usually a `map` of stored codes. A row whose kind reads as none of these offers (or blocks) nothing.', [{ column: 'pc_recurrtype', type: 'int', map: { 0: 'once', 1: 'every', 2: 'nth', 3: 'weekdays' } }]),
  every: Type.Optional(about(Value, '`every`: how many `unit`s between dates (a positive whole number). Default 1; given, a row where it reads as none is unreadable.', [{ column: 'pc_recurrspec', extract: '"event_repeat_freq";s:\\d+:"(\\d+)"' }])),
  unit: Type.Optional(about(Value, '`every`: the step, read as `day`, `week`, `month` (the same day of the month; a day the month lacks runs on into the next, as OpenEMR steps: 31 January, 3 March, 3 April …), `year` or `workday` (Monday to Friday). Required when rows can be `every`.', [{ column: 'pc_recurrspec', extract: '"event_repeat_freq_type";s:\\d+:"(\\d)"', map: { 0: 'day', 1: 'week', 2: 'month', 3: 'year', 4: 'workday' } }])),
  months: Type.Optional(about(Value, '`nth`: every how many months (a positive whole number), counted from the first date\'s month. Default 1; given, a row where it reads as none is unreadable.', [{ column: 'pc_recurrspec', extract: '"event_repeat_on_freq";s:\\d+:"(\\d+)"' }])),
  nth: Type.Optional(about(Value, '`nth`: which of the month\'s `weekday`s: 1 to 4 (the first to the fourth), or 5, -1 or `last` (the last). Required when rows can be `nth`.', [{ column: 'pc_recurrspec', extract: '"event_repeat_on_num";s:\\d+:"(\\d)"' }])),
  weekday: Type.Optional(about(Value, '`nth`: the day of the week, numbered as `weekdayBase` says. Required when rows can be `nth`.', [{ column: 'pc_recurrspec', extract: '"event_repeat_on_day";s:\\d+:"(\\d)"' }])),
  weekdayBase: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal('iso')], { description: weekdayNumbering('`weekday`'), examples: [0] })),
  weekdays: Type.Optional(about(Value, '`weekdays`: the days of the week, numbers separated by commas or spaces (`2,4,6`), numbered as `weekdaysBase` says. The row\'s first date is a date too, listed or not (as OpenEMR has it). Required when rows can be `weekdays`.', [{ column: 'pc_recurrspec', extract: '"event_repeat_freq";s:\\d+:"([\\d,]+)"' }])),
  weekdaysBase: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal('iso')], { description: `${weekdayNumbering('`weekdays`')} OpenEMR lists its days from Sunday 1.`, examples: [1] })),
  weeks: Type.Optional(about(Value, '`weekdays`: every how many weeks (Monday to Sunday, counted from the first date\'s week). Default 1: every week.', [{ value: 2 }])),
  until: Type.Optional(about(Value, 'The last date the row may fall on (inclusive). NULL, blank or a `nullIf` sentinel: no end. A plain date column lets the database skip rows that ended before the dates asked for.', [{ column: 'pc_endDate', format: 'date', nullIf: ['0000-00-00'] }])),
  except: Type.Optional(about(Value, 'Dates left out: `YYYYMMDD` or `YYYY-MM-DD` dates separated by commas or spaces (OpenEMR\'s `exdate`). Blank: none. A list holding anything else makes its row unreadable.', [{ column: 'pc_recurrspec', extract: '"exdate";s:\\d+:"([^"]*)"' }]))
}, {
  additionalProperties: false,
  title: 'Repeat',
  description: 'The row recurs: its date (a block\'s `from`) is the first date, and it stands for every date its rule falls on, to `until`, but for `except`; each date has the row\'s hours (a block: its `start`–`end`, or the whole day). Dates are worked out after reading, for the dates asked only; the database is asked only for rows that start by the last date asked and whose `until` is not before the first (and, where `kind` is a column with a `map`, for one-off rows of those dates alone). A row whose rule cannot be read (a value that reads as none where one is needed, a number out of range) is a problem `ponte check` reports at `repeat`: working hours offer nothing; a block fails closed, blocking its hours on every day from its first date to its `until` (or on).'
})

export const BlockSource = Type.Object({
  table: about(TableName, 'The table of blocked time (holidays, absences, closures).'),
  where: Type.Optional(about(Where, 'Only rows that meet this block.')),
  joins: Type.Optional(Type.Record(Type.String(), Join, { description: 'Tables joined to the block rows by alias.' })),
  professional: Type.Optional(about(Value, 'The professional blocked (NULL, with no `location`: everybody).')),
  location: Type.Optional(about(Value, 'The location closed: every professional there is blocked.')),
  from: about(Value, 'The first day (or date-time) blocked.'),
  to: Type.Optional(about(Value, 'The last day (or date-time) blocked; empty: the day `from` alone.')),
  start: Type.Optional(about(Value, 'The hour the block starts on each day (default: the day\'s start).')),
  end: Type.Optional(about(Value, 'The hour the block ends on each day (default: the day\'s end).')),
  storedIn: Type.Optional(Type.String({ minLength: 1, description: 'The IANA zone this source keeps its date-times in, when not the installation\'s `storedIn`: time off typed by the desk on the clinic\'s clock (its `timezone`) beside appointments kept in UTC. Default: `storedIn`.', examples: ['America/Chicago'] })),
  repeat: Type.Optional(about(Repeat, 'The block recurs (a lunch every workday): `from` is a date, its first day, and each date blocks `start`–`end` (or the whole day); the last date is `repeat.until`, so `to` is left out. A row whose rule cannot be read fails closed: it blocks its hours on every day from `from` to its `until` (or on), and `ponte check` reports it at `repeat`.', [{ kind: { value: 'every' }, every: { value: 1 }, unit: { value: 'workday' } }]))
}, {
  additionalProperties: false,
  title: 'BlockSource',
  description: 'Blocked time. Scope: a row blocks its `professional`, every professional at its `location` (a unit closed), or, with neither (or both NULL), everybody. ' +
    '`from`/`to` as dates block whole days (or `start`…`end` hours on each of them, an `end` of 00:00 after a later `start` meaning midnight, an earlier one the next day\'s); ' +
    'as datetimes (`format: datetime`) exactly the hours between them, an end at 23:59 meaning the end of the day. ' +
    'A `to` that is NULL, blank or a `nullIf` sentinel (declare zero dates such as 0000-00-00 there) is the one day `from`; 9999-12-31 never ends. ' +
    'A `to`, `start` or `end` holding something that cannot be read makes its row block nothing (`ponte check` counts such rows).'
})

/** A day's working hours as a template string, one character per slot (OSCAR's `timecode`). */
export const DayPattern = Type.Object({
  codes: about(Value, 'The template string, one character per slot: a column, or the first found of several (`{ coalesce: [own.timecode, shared.timecode] }`: the professional\'s own template by name, then the shared one, each a join).'),
  minutes: Type.Optional(Type.Integer({ minimum: 1, maximum: 480, description: 'Minutes each character stands for; without `end`, the string then runs from `start` as far as it reaches. Default: the hours from `start` to `end` divided by the string\'s length (a whole day of 96 characters: 15 minutes).' })),
  bookable: Type.Optional(Type.String({ minLength: 1, description: 'The characters whose slots are offered (case counts); any other is not. Give this or `closed`.', examples: ['1AC'] })),
  closed: Type.Optional(Type.String({ minLength: 1, description: 'The characters whose slots are never offered (case counts); any other is. Default: `_`.', examples: ['_.'] })),
  services: Type.Optional(Type.Record(Type.String({ minLength: 1 }), Type.String({ minLength: 1 }), {
    description: 'Which services may be booked on which characters (OSCAR: an appointment type allowed only on some template codes): a service id → the characters (case counts) whose slots take it. A service listed here is offered by /availability?service= only on its characters, and booking or rescheduling it onto another is refused (409, naming `service`); a service not listed takes every bookable character.',
    examples: [{ 7: 'A', 8: 'Bb' }]
  }))
}, {
  additionalProperties: false,
  title: 'DayPattern',
  description: 'Working hours as a template string: its characters cut the hours from `start` (default 00:00) to `end` (default midnight) into slots of equal length, offered where the character is bookable; consecutive bookable slots form one window, stepped by the slot length. Trailing spaces are padding. A string that is blank, does not divide the hours into whole minutes, runs past midnight or (with `minutes` and `end`) does not fill the hours exactly makes its row offer nothing (`ponte check` counts such rows).'
})

export const Availability = Type.Object({
  slotMinutes: Type.Optional(Type.Integer({ minimum: 5, maximum: 480, description: 'The length of an offered slot where a schedule row gives no `interval`, in minutes. Default: 30.', examples: [20] })),
  starts: Type.Optional(Type.Object({
    every: Type.Optional(Type.Union([
      Type.Integer({ minimum: 5, maximum: 480, description: 'Minutes between offered starts for every professional.' }),
      Type.Literal('interval', { description: 'Each working window steps by its own hours row\'s `interval` (a per-doctor grid kept on the schedule rows: `interval: INTERVALO`).' })
    ], { description: 'Minutes between offered starts, whatever the slot\'s length (a 40-minute visit offered at 08:00, 08:10, 08:20 …), or `interval`: each hours row\'s own `interval` (a 20-minute service on a doctor\'s 15-minute grid offered at 08:00, 08:15, 08:30 …). Default: the slot\'s length (the service\'s duration, else the row\'s `interval`).', examples: [10, 'interval'] })),
    afterBlocks: Type.Optional(Type.Boolean({ description: 'true: after a block (a blockout, a lunch) the starts run again from the block\'s end (Open Dental\'s grid after a blockout ending 10:25: 10:25, 10:35 …), not from the window\'s start. Default false.' }))
  }, { additionalProperties: false, description: 'Where offered start times fall in a working window (and so which a booking or a reschedule may take): every `every` minutes (or each hours row\'s own `interval`) from the window\'s start, and, with `afterBlocks`, from each block\'s end.' })),
  weekly: Type.Optional(Type.Object({
    table: about(TableName, 'The table of working hours, a row per professional, weekday and shift.', ['dbo.GRADE']),
    where: Type.Optional(about(Where, 'Only rows that meet this are working hours.')),
    joins: Type.Optional(Type.Record(Type.String(), Join, { description: 'Tables joined to the schedule rows by alias.' })),
    professional: about(Value, 'The professional who works these hours.'),
    location: Type.Optional(about(Value, 'Where (default: any location the professional is related to).')),
    weekday: about(Value, 'The day of the week, as stored (numbered as `weekdayBase` says).'),
    weekdayBase: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal('iso')], { description: 'How `weekday` numbers the days: `0` (default) Sunday 0 … Saturday 6; `1` Sunday 1 … Saturday 7; `iso` Monday 1 … Sunday 7 (ISO 8601, PostgreSQL `isodow`).' })),
    start: Type.Optional(about(Value, 'The hour the shift starts (with `pattern`: default 00:00).')),
    end: Type.Optional(about(Value, 'The hour the shift ends (with `pattern`: default midnight).')),
    interval: Type.Optional(about(Value, 'The slot length of this row, in minutes (default `slotMinutes`).')),
    pattern: Type.Optional(about(DayPattern, 'The shift as a template string of slots (instead of `interval`).')),
    validFrom: Type.Optional(about(Value, 'The first day the row applies (empty: always has).')),
    validTo: Type.Optional(about(Value, 'The last day the row applies (empty: no end).'))
  }, {
    additionalProperties: false,
    description: 'Working hours by weekday. `start` and `end` are required unless the row has a `pattern`. An `end` of 00:00 after a later `start` is midnight; any `end` earlier than `start` is the next day\'s (a night shift 22:00–06:00, on the weekday it starts). A `validFrom`/`validTo` holding something that cannot be read (not blank, not a `nullIf` sentinel) makes its row offer nothing.'
  })),
  dated: Type.Optional(Type.Object({
    table: about(TableName, 'The table of working hours on given days.'),
    where: Type.Optional(about(Where, 'Only rows that meet this are working hours.')),
    joins: Type.Optional(Type.Record(Type.String(), Join, { description: 'Tables joined to the schedule rows by alias.' })),
    professional: about(Value, 'The professional who works these hours.'),
    location: Type.Optional(about(Value, 'Where (default: any location the professional is related to).')),
    date: Type.Optional(about(Value, 'The day.')),
    start: Type.Optional(about(Value, 'The hour (or date-time) the hours start (with `pattern`: default 00:00).')),
    end: Type.Optional(about(Value, 'The hour (or date-time) the hours end (with `pattern`: default midnight).')),
    interval: Type.Optional(about(Value, 'The slot length of this row, in minutes (default `slotMinutes`).')),
    pattern: Type.Optional(about(DayPattern, 'The day as a template string of slots (instead of `interval`): OSCAR\'s `scheduledate` rows naming a template.')),
    storedIn: Type.Optional(Type.String({ minLength: 1, description: 'The IANA zone this source keeps its date-times in, when not the installation\'s `storedIn`: time off typed by the desk on the clinic\'s clock (its `timezone`) beside appointments kept in UTC. Default: `storedIn`.', examples: ['America/Chicago'] })),
    repeat: Type.Optional(about(Repeat, 'The row recurs (OpenEMR\'s "In Office" events every Monday until a date): its `date` (or its start\'s) is the first date, and each date it falls on has its hours (on the clinic\'s clock). A row whose rule cannot be read offers nothing, and `ponte check` reports it at `repeat`.', [{ kind: { column: 'pc_recurrtype', type: 'int', map: { 0: 'once', 1: 'every', 3: 'weekdays' } }, every: { column: 'pc_recurrspec', extract: '"event_repeat_freq";s:\\d+:"(\\d+)"' }, unit: { value: 'week' }, weekdays: { column: 'pc_recurrspec', extract: '"event_repeat_freq";s:\\d+:"([\\d,]+)"' }, weekdaysBase: 1, until: { column: 'pc_endDate', format: 'date', nullIf: ['0000-00-00'] } }]))
  }, { additionalProperties: false, description: '`date` and hours, or `start`/`end` stored as datetimes (then `date` may be left out: it is the start\'s). An `end` of 00:00 after a later `start` (an hour, or the next day\'s 00:00) is midnight; an hour earlier than `start`, or a datetime on the next date, is the next day\'s (a night shift). `start` and `end` are required unless the row has a `pattern`.' })),
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
  timezone: Type.Optional(Type.String({ description: 'IANA zone of the clinic; dates and hours are its wall clock. Default: America/Sao_Paulo.', examples: ['America/Sao_Paulo'] })),
  storedIn: Type.Optional(Type.String({
    minLength: 1,
    description: 'IANA zone the database stores its date-times in, when not the clinic\'s `timezone` (`UTC` for Tryton/GNU Health and many modern systems, whose `timestamp` columns hold naive UTC). Every date-time of the schedule held in one value (the appointment\'s start and end, dated working hours, datetime blocks, slots) is read on the clinic\'s wall clock, filtered by the stored instants of the clinic\'s days (the column keeps its index) and written back on the stored clock, across DST changes; `now:` writes the stored clock\'s now. Dates alone (birthdays, whole-day blocks) and hours alone (weekly hours) are never converted; an appointment or dated hours kept as a date and an hour apart is refused. Default: the clinic\'s `timezone` (nothing converted).',
    examples: ['UTC']
  })),
  phone: Type.Optional(Type.Object({
    defaultCountry: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$', description: 'The country of numbers stored without one (ISO 3166 code), whose spellings a phone search looks up. Default: BR.', examples: ['BR', 'PT', 'CA'] })),
    defaultAreaCode: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$', description: 'The area code of local numbers stored without one, in any country: \'98765-4321\' with 11 in BR is +5511987654321, \'555-0143\' with 905 in CA +19055550143, \'7946 0018\' with 020 in GB +442079460018. Outside Brazil (8 or 9 digits there) a number is read with it only when it is no valid number of the country alone and is one with it. Default: none (such numbers are not read).', examples: ['11', '905', '020'] })),
    addNinthDigit: Type.Optional(Type.Boolean({ description: 'Brazil: an 8-digit number starting with 6–9 (an old mobile, `9876-5432`, `(11) 8765-4321`) is read with today\'s ninth digit (+5511998765432, +5511987654321); false reads it as stored (+551198765432), where such rows are landlines or numbers that were never moved to nine digits. Search finds a number by either form whatever this says. Default true.', examples: [false] }))
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
export type RepeatDoc = Static<typeof Repeat>
export type ValueObjectDoc = Exclude<ValueDoc, string>
export type RuleDoc = NonNullable<ValueObjectDoc['rules']>[number]
export type ConditionDoc = Static<typeof Condition>
export type ConditionLeafDoc = Static<typeof ConditionLeaf>
export type WhereDoc = Static<typeof Where>
export type JoinDoc = Static<typeof Join>
export type JoinOnDoc = Static<typeof JoinOn>
export type JoinColumnDoc = Static<typeof JoinColumn>
export type SqlTypeName = Static<typeof SqlType>
export type RefNameT = Static<typeof RefName>
export type RelationDoc = Static<typeof Relation>
export type LiteralValue = Static<typeof Literal>
export type WriteSpecDoc = Static<typeof WriteSpec>
