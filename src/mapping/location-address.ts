// A location's address is required by the interface: a mapping must say where it comes from,
// and a constant standing in for it cannot be blank (the field is answered, never empty).
import type { Value } from './model.js'

type Fail = (path: string, message: string) => void

const HOW = 'map its column (`address: ENDERECO`), its parts (`address: { template: \'{RUA}, {NUMERO} - {BAIRRO}\' }`), ' +
  'or, where the clinic keeps none, a constant (`address: { value: \'Rua das Flores, 100\' }`) or the name column (`address: NOME`)'

export function checkAddress (address: Value | undefined, path: string, fail: Fail): void {
  if (address === undefined) {
    fail(`${path}/fields`, `a location needs \`address\` (the interface requires one): ${HOW}`)
    return
  }
  const constant = address.value
  if ('value' in address && (constant === null || String(constant).trim() === '')) {
    fail(`${path}/fields/address`, `a blank constant is no address (the interface requires one): ${HOW}`)
  }
}
