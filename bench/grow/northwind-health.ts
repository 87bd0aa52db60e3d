import type { Grow } from './kit.js'
export const growNorthwindHealth: Grow = () => { throw new Error('northwind-health: not grown yet') }
