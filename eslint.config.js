// Style is neostandard's (no semicolons, two spaces): one gate for code and tests.
import neostandard from 'neostandard'

export default [
  ...neostandard({
    ts: true,
    ignores: ['dist/**', 'coverage/**', '.tap/**', 'node_modules/**', 'bench/results/**', '.scratch-*/**']
  }),
  {
    rules: {
      // `void promise` marks a deliberate fire-and-forget; as an expression it stays refused.
      'no-void': ['error', { allowAsStatement: true }],
      // Our loop flags are flipped by callbacks across an await, which the rule cannot see.
      'no-unmodified-loop-condition': 'off'
    }
  }
]
