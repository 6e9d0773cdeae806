// A part the service needs could not be reached (docs/configuration.md "[state]" and "[rate_limit]"): the request
// is answered `503 {"error":"unavailable"}`, never let through as if the part had agreed.

export class UnavailableError extends Error {
  constructor(readonly part: string) {
    super(`${part} is unavailable`);
    this.name = 'UnavailableError';
  }
}
