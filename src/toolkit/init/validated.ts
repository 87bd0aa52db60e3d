// The draft as written: validated as `ponte check` and the server will load it. A draft that
// does not validate (two guesses writing the same key) is still written, whatever the schema
// held, with what is wrong as TODO lines under its first line: a stranger gets a draft to
// mend, never a stack trace and no file.
import { MappingError } from '../../mapping/errors.js'
import { parseMapping } from '../../mapping/load.js'

/** The draft, with a TODO per problem when it does not validate; `problems` counts them. */
export function validated (yaml: string, file: string): { yaml: string, problems: number } {
  try {
    parseMapping(yaml, file)
    return { yaml, problems: 0 }
  } catch (err) {
    if (!(err instanceof MappingError)) throw err
    const lines = yaml.split('\n')
    // Below the schema link, which editors read from the first line only; each line said counts these notes too.
    const at = (line: number | undefined): string => line === undefined ? '?' : String(line > 1 ? line + err.issues.length : line)
    const said = err.issues.map((i) => `# TODO: the draft does not validate at line ${at(i.line)} (${i.path || '/'}): ${i.message.replace(/\n/g, ' ')}`)
    return { yaml: [lines[0], ...said, ...lines.slice(1)].join('\n'), problems: said.length }
  }
}
