// A real T-SQL grammar, offline: SQL Server cannot run here, so every golden T-SQL
// statement is at least parsed by the ANTLR TSqlParser shipped in `antlr4ts-sql`
// (design notes §4). Its default listener only prints to the console: errors are
// collected here instead, from the lexer and from the parser, so tests can fail on them.
//
// The grammar is not version-aware (it accepts TRIM(), CONCAT(), `||`, …), so
// `tsqlVersionProblems` adds a token-level check for what a target SQL Server lacks.
import { antlr4tsSQL, BailErrorStrategy, ParseCancellationException, PredictionMode, SQLDialect, type ANTLRErrorListener, type CommonTokenStream, type Token, type TSQLGrammar } from 'antlr4ts-sql'

// eslint-disable-next-line new-cap -- the library's own class name
const tsql = new antlr4tsSQL(SQLDialect.TSQL)

export interface TsqlParse {
  /** Syntax errors, `line:col near "text": message`; empty when the text is valid T-SQL. */
  errors: string[]
  /** Top-level statements the text parsed into (a golden statement is exactly one). */
  statements: number
  /** Default-channel tokens, with their text taken from the source (see `tokenText`). */
  tokens: { type: number, text: string }[]
}

export function parseTsqlScript (sql: string): TsqlParse {
  // Two-stage parsing, the usual ANTLR speed-up: the fast SLL mode, which bails on the first
  // problem; only then the full LL mode, which is exact and reports every error.
  let bailed = false
  const fast = tsql.getTokens(sql, [{ syntaxError () { bailed = true } }])
  const fastParser = tsql.getParser(fast, [])
  fastParser.interpreter.setPredictionMode(PredictionMode.SLL)
  fastParser.errorHandler = new BailErrorStrategy()
  try {
    const tree = tsql.getParseTree(fastParser) as TSQLGrammar.Tsql_fileContext
    if (!bailed) return { errors: [], statements: countStatements(tree), tokens: tokenList(sql, fast) }
  } catch (err) {
    if (!(err instanceof ParseCancellationException)) throw err
  }

  const errors: string[] = []
  const listener: ANTLRErrorListener<unknown> = {
    syntaxError (_recognizer, offending, line, col, msg) {
      const token = offending as Token | undefined
      const near = token && token.type !== -1 ? tokenText(sql, token) : token ? '<end>' : sql.slice(offsetOf(sql, line, col), offsetOf(sql, line, col) + 1)
      errors.push(`${line}:${col} near ${JSON.stringify(near)}: ${shorten(msg)} — ${excerpt(sql, token ? token.startIndex : offsetOf(sql, line, col))}`)
    }
  }
  const tokens = tsql.getTokens(sql, [listener])
  const parser = tsql.getParser(tokens, [listener])
  const tree = tsql.getParseTree(parser) as TSQLGrammar.Tsql_fileContext
  return { errors, statements: countStatements(tree), tokens: tokenList(sql, tokens) }
}

function countStatements (tree: TSQLGrammar.Tsql_fileContext): number {
  let statements = tree.execute_body_batch() ? 1 : 0
  for (const batch of tree.batch()) {
    statements += batch.sql_clauses().length + (batch.batch_level_statement() ? 1 : 0) + (batch.execute_body_batch() ? 1 : 0)
  }
  return statements
}

function tokenList (sql: string, tokens: CommonTokenStream): TsqlParse['tokens'] {
  return tokens.getTokens()
    .filter((tk) => tk.channel === 0 && tk.type !== -1)
    .map((tk) => ({ type: tk.type, text: tokenText(sql, tk) }))
}

/**
 * Syntax errors of `sql` as T-SQL (empty = valid). A broken statement can read as two
 * valid ones (`SELECT … FROM t` + `FETCH …`), so the statement count can be checked too:
 * `statements: n` wants exactly n; `separated: true` wants every statement after the
 * first to follow an explicit `;`, which is how the dialect writes batches
 * (`DECLARE @ids TABLE …; INSERT … OUTPUT … INTO @ids …; SELECT …`).
 */
export function parseTsql (sql: string, options: { statements?: number, separated?: boolean } = {}): string[] {
  const parsed = parseTsqlScript(GRAMMAR_GAPS.reduce((text, gap) => text.replace(gap.pattern, gap.replacement), sql))
  const errors = [...parsed.errors]
  if (parsed.errors.length > 0) return errors
  if (options.statements !== undefined && parsed.statements !== options.statements) {
    errors.push(`parsed as ${parsed.statements} statements, expected ${options.statements}`)
  }
  if (options.separated) {
    const semicolons = parsed.tokens.filter((tk, i) => tk.text === ';' && i < parsed.tokens.length - 1).length
    if (parsed.statements !== semicolons + 1) {
      errors.push(`parsed as ${parsed.statements} statements but written as ${semicolons + 1} (a statement that is not ended by ";" reads as two)`)
    }
  }
  return errors
}

// Valid T-SQL the grammar in antlr4ts-sql 1.1.0 does not know, each checked against the
// SQL Server documentation. Only these exact constructs are rewritten, to something of
// the same role the grammar does parse, before `parseTsql` parses; the version check
// (`tsqlVersionProblems`) still sees the original text.
const NAME = String.raw`(?:\[(?:[^\]]|\]\])*\]|[A-Za-z_@#][\w@#$]*)`
const GRAMMAR_GAPS: { construct: string, pattern: RegExp, replacement: string }[] = [
  // NEXT VALUE FOR [db.][schema.]sequence (SQL Server 2012+): an expression, like a function call.
  { construct: 'NEXT VALUE FOR', pattern: new RegExp(String.raw`\bNEXT\s+VALUE\s+FOR\s+(${NAME}(?:\.${NAME}){0,2})`, 'gi'), replacement: 'NEXT_VALUE_FOR($1)' }
]

// What arrived after each SQL Server version the dialect may target. 2008 = 2008 R2
// (legacy paging), 2012 = the modern OFFSET … FETCH dialect's minimum.
const FUNCTIONS_SINCE: Record<string, number> = {
  CONCAT: 2012,
  IIF: 2012,
  CHOOSE: 2012,
  TRY_CAST: 2012,
  TRY_CONVERT: 2012,
  TRY_PARSE: 2012,
  PARSE: 2012,
  FORMAT: 2012,
  EOMONTH: 2012,
  DATEFROMPARTS: 2012,
  DATETIMEFROMPARTS: 2012,
  DATETIME2FROMPARTS: 2012,
  SMALLDATETIMEFROMPARTS: 2012,
  TIMEFROMPARTS: 2012,
  LAG: 2012,
  LEAD: 2012,
  FIRST_VALUE: 2012,
  LAST_VALUE: 2012,
  STRING_SPLIT: 2016,
  STRING_ESCAPE: 2016,
  JSON_VALUE: 2016,
  JSON_QUERY: 2016,
  JSON_MODIFY: 2016,
  ISJSON: 2016,
  OPENJSON: 2016,
  DATEDIFF_BIG: 2016,
  COMPRESS: 2016,
  DECOMPRESS: 2016,
  TRIM: 2017,
  CONCAT_WS: 2017,
  STRING_AGG: 2017,
  TRANSLATE: 2017,
  GREATEST: 2022,
  LEAST: 2022,
  DATE_BUCKET: 2022,
  GENERATE_SERIES: 2022,
  DATETRUNC: 2022
}

/** Constructs `sql` uses that SQL Server `target` does not have, which the grammar accepts anyway. */
export function tsqlVersionProblems (sql: string, target: 2008 | 2012): string[] {
  // Tokens only (no parse): identifiers in brackets and string literals never match.
  const stream = tsql.getTokens(sql, [{ syntaxError () {} }])
  stream.fill()
  const tokens = tokenList(sql, stream)
  const problems: string[] = []
  tokens.forEach((tk, i) => {
    const word = tk.text.toUpperCase()
    const since = FUNCTIONS_SINCE[word]
    if (since !== undefined && since > target && tokens[i + 1]?.text === '(') {
      problems.push(`${word}() needs SQL Server ${since}+, the target is ${target}`)
    }
    if (target < 2012 && (word === 'OFFSET' || (word === 'FETCH' && tokens[i + 1]?.text.toUpperCase() === 'NEXT'))) {
      problems.push(`${word} … needs SQL Server 2012+, the target is ${target} (page with ROW_NUMBER())`)
    }
    if (word === '||') problems.push('`||` is not string concatenation before SQL Server 2025: use +')
    if (word === 'AT' && tokens[i + 1]?.text.toUpperCase() === 'TIME' && target < 2016) problems.push('AT TIME ZONE needs SQL Server 2016+')
    if (word === 'NEXT' && tokens[i + 1]?.text.toUpperCase() === 'VALUE' && target < 2012) problems.push(`NEXT VALUE FOR (sequences) needs SQL Server 2012+, the target is ${target}`)
    if (word === 'THROW' && target < 2012) problems.push(`THROW needs SQL Server 2012+, the target is ${target}: use RAISERROR`)
  })
  return [...new Set(problems)]
}

// The library's case-changing char stream loses token text (`'<815>'` in messages):
// take the text from the source by the token's character offsets instead.
function tokenText (sql: string, token: Token): string {
  return sql.slice(token.startIndex, token.stopIndex + 1)
}

function offsetOf (sql: string, line: number, col: number): number {
  let offset = 0
  for (let l = 1; l < line; l++) offset = sql.indexOf('\n', offset) + 1
  return offset + col
}

function shorten (msg: string): string {
  return msg
    .replace(/'<\d+>'/g, 'the token')
    .replace(/expecting \{([^}]*)\}/, (all, list: string) => all.length > 120 ? `expecting one of ${list.split(', ').length} tokens` : all)
}

function excerpt (sql: string, at: number): string {
  const from = Math.max(0, at - 40)
  return `${from > 0 ? '…' : ''}${sql.slice(from, at)}⟨here⟩${sql.slice(at, at + 30)}${at + 30 < sql.length ? '…' : ''}`
}
