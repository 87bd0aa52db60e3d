// What a row's written columns say about a condition on it: the values a condition requires
// (a free slot's, a state row's join `where`) and whether the columns written decide it.
import type { ConditionDoc, ConditionLeafDoc, LiteralValue } from '../schema.js'
import { conditionTest, literalType } from './condition.js'
import type { WrittenValue } from './derived.js'
import type { ColumnValues } from './write-columns.js'

/**
 * The columns every row meeting `conditions` holds (`eq`, `isNull: true`, `in`, `blank: true`):
 * leaves reached through `all` only, as one branch of an `any` or the inside of a `not` says
 * nothing such a row must hold.
 */
export function requiredValues (conditions: ConditionDoc[]): WrittenValue[] {
  const required = (c: ConditionDoc): ConditionLeafDoc[] => 'all' in c ? c.all.flatMap(required) : 'any' in c || 'not' in c ? [] : [c]
  return conditions.flatMap(required).flatMap((leaf): WrittenValue[] => {
    const v = requiredValue(leaf)
    return v === undefined ? [] : [{ column: leaf.column, type: v === null ? 'text' : literalType(v), value: () => v }]
  })
}

function requiredValue (leaf: ConditionLeafDoc): LiteralValue | null | undefined {
  if (leaf.eq !== undefined) return leaf.eq
  if (leaf.in !== undefined) return leaf.in[0]
  if (leaf.isNull === true || leaf.blank === true) return null
  return undefined
}

/**
 * Whether a row holding `values` (by column; columns absent are unknown) meets `c`: true,
 * false, or undefined when it depends on a column not written.
 */
export function decided (c: ConditionDoc, values: ColumnValues): boolean | undefined {
  if ('not' in c) {
    const inner = decided(c.not, values)
    return inner === undefined ? undefined : !inner
  }
  if ('all' in c || 'any' in c) {
    const each = ('all' in c ? c.all : c.any).map((x) => decided(x, values))
    const decisive = 'any' in c
    return each.includes(decisive) ? decisive : each.every((x) => x === !decisive) ? !decisive : undefined
  }
  if (!(c.column in values)) return undefined
  return conditionTest(c, '', () => c.column)({ [c.column]: values[c.column] })
}
