import type { TierName } from '../../schemas/index.js';
import { DEEP_LINK_PATH, acceptableFallback, stateOf } from '../deeplinks/index.js';
import type { DeepLinkResolver, ResolvedLink } from '../deeplinks/index.js';
import { ApiError } from '../errors.js';
import type { QueryOf, ReplyOf, RouteTypes } from '../contract/index.js';
import { requireFeatureOf } from './access.js';

export type DeepLinkBatchBody = RouteTypes<'/api/v1/deeplinks/batch', 'post'>['Body'];
export type DeepLinkQuery = QueryOf<'/api/v1/deeplink/{id}'>;
type LinksById = ReplyOf<'/api/v1/deeplinks/batch', 'post'>['data'];

/** Where `/deeplink/{id}` sends a client: a sportsbook page, or the caller's own fallback. */
export interface DeepLinkTarget {
  url: string;
  type: ResolvedLink['type'] | 'fallback';
}

/** `POST /deeplinks/batch` (Hobby and up): each distinct id to its resolver path, or null when nothing resolves it. */
export function deepLinkBatch(
  resolver: DeepLinkResolver,
  tier: TierName,
  body: DeepLinkBatchBody,
): ReplyOf<'/api/v1/deeplinks/batch', 'post'> {
  requireFeatureOf(tier, 'deeplinks');
  const state = stateOf(body.state, 'body field');
  // Ids come from the caller: a null-prototype object cannot be steered by '__proto__'.
  const data = Object.create(null) as LinksById;
  let count = 0;
  let resolved = 0;
  for (const id of body.ids) {
    if (Object.hasOwn(data, id)) continue;
    const link = resolver.resolve(id, { state }) ? `${DEEP_LINK_PATH}${encodeURIComponent(id)}?state=${state}` : null;
    data[id] = link;
    count++;
    if (link !== null) resolved++;
  }
  return { success: true, data, meta: { count, resolved, state } };
}

/**
 * `GET /deeplink/{id}` (no key): the page an id opens, or the fallback when no link resolves.
 * `origins` are the sportsbook sites of the link templates, the only places off this site a
 * fallback may lead; a fallback elsewhere is refused before anything is resolved.
 */
export function deepLinkTarget(resolver: DeepLinkResolver, origins: ReadonlySet<string>, id: string, q: DeepLinkQuery): DeepLinkTarget {
  const state = stateOf(q.state, 'query parameter');
  let fallback: string | null = null;
  if (q.fallback !== undefined) {
    fallback = acceptableFallback(q.fallback, origins);
    if (fallback === null) {
      throw new ApiError(
        'invalid_request',
        "Invalid query parameter 'fallback': must be a path on this site (/…) or an http(s) URL on a sportsbook site of the link templates",
      );
    }
  }
  const link = resolver.resolve(id, {
    state,
    ...(q.book === undefined ? {} : { book: q.book }),
    ...(q.game_id === undefined ? {} : { gameId: q.game_id }),
  });
  const target = link ?? (fallback === null ? null : { url: fallback, type: 'fallback' as const });
  if (!target)
    throw new ApiError('not_found', `No deep link for '${id}': the id is unknown or expired, or its sportsbook has no link templates`);
  return target;
}
