import { ApiError } from '../errors.js';
import { DEFAULT_STATE, US_STATES } from '../../schemas/index.js';

/** `state` on the routes whose rows carry deep links: absent = the resolver's default (pa). */
export const deepLinkStateParam = {
  type: 'string',
  pattern: '^[A-Za-z]{2}$',
  description:
    "US state code (e.g. nj): the `deep_link` URLs carry it, so books whose site is per state open the right one. Default: the resolver's, pa.",
} as const;

/** `state`, lowercased and checked against the US state codes; the default when absent. */
export function stateOf(raw: string | undefined, where: string): string {
  const state = (raw ?? DEFAULT_STATE).toLowerCase();
  if (!US_STATES.has(state)) throw new ApiError('invalid_request', `Invalid ${where} 'state': '${raw ?? ''}' is not a US state code`);
  return state;
}

/** The `state` a request asked for, checked; undefined when it asked for none. */
export function requestedState(raw: string | undefined): string | undefined {
  return raw === undefined ? undefined : stateOf(raw, 'query parameter');
}

/** A resolver URL with `state` in its query (the resolver honours it). */
export function linkInState(link: string | null, state: string): string | null {
  if (link === null) return null;
  return `${link}${link.includes('?') ? '&' : '?'}state=${state}`;
}

/**
 * A copy of a presented answer with `state` in every deep link: `deep_link` on rows, legs and
 * sides, and the values of `deep_links` maps, at any depth. Presenters stay state-free and
 * their output is never changed in place (it may be shared between requests). `state` is one
 * `requestedState` returned; undefined leaves the answer as it is.
 */
export function putStateInLinks<T>(value: T, state: string | undefined): T {
  if (state === undefined) return value;
  const copy = (v: unknown, key: string | null): unknown => {
    if (key === 'deep_link' && typeof v === 'string') return linkInState(v, state);
    if (Array.isArray(v)) return v.map((item) => copy(item, null));
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = Object.getPrototypeOf(v) === null ? (Object.create(null) as Record<string, unknown>) : {};
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      out[k] = key === 'deep_links' && typeof child === 'string' ? linkInState(child, state) : copy(child, k);
    }
    return out;
  };
  return copy(value, null) as T;
}
