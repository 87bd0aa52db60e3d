// `ponte explain` and `ponte schema`: what the mapping compiles to, and the language itself.
import { Option, type Command } from 'commander'
import { loadMapping } from '../installation.js'
import { compileMapping } from '../mapping/compile/index.js'
import { renderStatement } from '../mapping/explain.js'
import { mappingJsonSchemaText } from '../mapping/json-schema.js'
import { EXPLAIN_DIALECTS, explainDialect } from '../sql/databases.js'
import { mappingOption, mappingPath } from './usage.js'

export function explainCommand (cli: Command): void {
  cli.command('explain')
    .description('print every statement the mapping compiles to')
    .addOption(mappingOption())
    .addOption(new Option('--dialect <name>', 'the SQL dialect').choices(EXPLAIN_DIALECTS).default(EXPLAIN_DIALECTS[0]))
    .action(async (o: { mapping?: string, dialect: string }) => {
      const compiled = compileMapping(loadMapping(mappingPath(o.mapping)), await explainDialect(o.dialect))
      process.stdout.write(compiled.statements().map(renderStatement).join('\n'))
    })
}

export function schemaCommand (cli: Command): void {
  cli.command('schema')
    .description('print the mapping language\'s JSON Schema (for editors: see docs/mapping.md)')
    .action(() => { process.stdout.write(mappingJsonSchemaText()) })
}
