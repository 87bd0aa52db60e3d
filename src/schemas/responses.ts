import { Problem } from './problem.js'

/** The error statuses every interface route may answer, documented in OpenAPI. */
export const errorResponses = {
  400: Problem,
  401: Problem,
  404: Problem,
  429: Problem,
  503: Problem,
  504: Problem
}

/** Writes may also conflict (409: slot taken, forbidden move), be too large, compressed or not UTF-8 (415), or repeat a key. */
export const writeErrorResponses = {
  ...errorResponses,
  409: Problem,
  413: Problem,
  415: Problem,
  422: Problem
}
