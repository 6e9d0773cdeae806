// Which format GET /metrics answers in (docs/forms-api.md "/metrics"): JSON by default; the Prometheus text format
// (version 0.0.4) for `?format=prometheus`, or for an Accept header that takes text/plain or
// application/openmetrics-text (what a Prometheus server sends), unless `?format=json` asks for JSON.
import { parse as parseQuery } from 'node:querystring';

export type MetricsFormat = 'json' | 'prometheus';

const TEXT_TYPES = new Set(['text/plain', 'application/openmetrics-text']);

export function metricsFormatOf(accept: string | undefined, query: string): MetricsFormat {
  if (query !== '') {
    const format = parseQuery(query).format;
    if (format === 'prometheus' || format === 'json') return format;
  }
  return accept !== undefined && takesText(accept) ? 'prometheus' : 'json';
}

/** Whether `accept` lists one of TEXT_TYPES with a quality above 0. */
function takesText(accept: string): boolean {
  for (const range of accept.split(',')) {
    const [type = '', ...parameters] = range.split(';');
    if (!TEXT_TYPES.has(type.trim().toLowerCase())) continue;
    const quality = parameters.map((parameter) => /^\s*q\s*=\s*([\d.]+)\s*$/i.exec(parameter)?.[1]).find((value) => value !== undefined);
    if (quality === undefined || Number(quality) > 0) return true;
  }
  return false;
}
