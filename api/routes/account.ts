import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { KeyConflict, keyStatus, periodStarts } from '../accounts/index.js';
import type { Accounts, AuthenticatedKey } from '../accounts/index.js';
import {
  accountPreferencesSchema,
  accountSchema,
  apiKeySchema,
  newKeySchema,
  presentKey,
  presentNewKey,
  usageSchema,
} from '../contract/index.js';
import { authErrorResponses, errorResponse, isoTime, notFoundResponse, withIgnoredParams } from '../contract/index.js';
import type { ServingDeps } from '../deps.js';
import { ApiError } from '../errors.js';
import { StoreError } from '../../pipeline/store/index.js';
import { TIERS, TIER_NAMES } from '../../schemas/index.js';
import { accountInfo, fromStore, setAccountCommission, tierRefusal } from '../queries/index.js';
import type { StoreFailure } from '../queries/index.js';
import type { TierName } from '../../schemas/index.js';
import type { RouteTypes } from '../contract/index.js';
import { callerOf, noStore } from '../plugins/index.js';

const keyIdParams = {
  type: 'object',
  required: ['keyId'],
  properties: {
    keyId: { type: 'string', minLength: 1, maxLength: 100, description: 'The key-store id (`key_…`), as listed by GET /account/keys.' },
  },
} as const;

const envelope = (data: object, { meta, ...extra }: Record<string, object> = {}): object => ({
  type: 'object',
  required: ['success', 'data', 'updated_at'],
  properties: {
    success: { type: 'boolean' },
    data,
    meta: withIgnoredParams(meta),
    updated_at: { type: 'string', format: 'date-time' },
    ...extra,
  },
});

const storeDown = errorResponse('unavailable: the account store is not reachable; retry shortly.');

/** The stream hub's view of an account: streams open on this replica, and how many it may hold. */
export interface AccountStreams {
  open(accountId: string): number;
  max(tier: TierName, accountId: string): number;
}

export const accountRoutes: FastifyPluginAsync<{ deps: ServingDeps; accounts: Accounts; streams: AccountStreams }> = async (
  app,
  { deps, accounts, streams },
) => {
  const keys = accounts.keys;
  const now = deps.now ?? Date.now;
  // Keys, usage and new secrets are the caller's alone; the key rides in X-API-Key, which a shared
  // cache does not treat as Authorization, so it is told outright never to keep these answers.
  app.addHook('onRequest', noStore);

  /** A key of the caller's account; another account's key is as unknown as a made-up id. */
  const ownKey = (auth: AuthenticatedKey, id: string) => {
    const k = keys.key(id);
    if (!k || k.accountId !== auth.accountId) throw new ApiError('not_found', `No key '${id}' in this account`);
    return k;
  };

  app.get<RouteTypes<'/api/v1/account'>>(
    '/account',
    {
      schema: {
        tags: ['account'],
        summary: 'The account and tier of the key in use',
        description:
          'Tier, rate limit, sportsbook allowance, features, streaming allowance and data delay of the key that sends the request.',
        response: { 200: envelope(accountSchema), ...authErrorResponses },
      },
    },
    async (request) => accountInfo(accounts, callerOf(request), now()),
  );

  app.patch<RouteTypes<'/api/v1/account', 'patch'>>(
    '/account',
    {
      schema: {
        tags: ['account'],
        summary: "Set the account's preferences",
        description:
          "Sets the account's own exchange commission rate (`exchange_commission`, percent; null clears it) for every key of the account. Answers as GET /account does.",
        body: accountPreferencesSchema,
        response: { 200: envelope(accountSchema), ...authErrorResponses, 503: storeDown },
      },
    },
    async (request) => viaStore(() => setAccountCommission(accounts, callerOf(request), request.body.exchange_commission, now())),
  );

  app.get<RouteTypes<'/api/v1/account/usage'>>(
    '/account/usage',
    {
      schema: {
        tags: ['account'],
        summary: "The account's requests today, this week and this month, and the current window",
        description:
          'Requests of every key of the account, in total and per route, for the UTC day, ISO week and calendar month; the ' +
          "rate-limit window as of this request; open streams. Counts are kept in minute buckets; other replicas' last few " +
          'seconds may not be in yet.',
        response: { 200: envelope(usageSchema), ...authErrorResponses, 503: storeDown },
      },
    },
    async (request, reply) => {
      const auth = callerOf(request);
      const recorder = deps.usage;
      const usage = recorder
        ? await viaStore(() => recorder.usageOf(auth.accountId))
        : { today: 0, this_week: 0, this_month: 0, byEndpoint: new Map() };
      const t = TIERS[auth.tier];
      const perMinute = auth.requestsPerMinute ?? t.requestsPerMinute;
      const at = now();
      const { month, nextMonth } = periodStarts(at);
      const byEndpoint = [...usage.byEndpoint.entries()]
        .map(([endpoint, c]) => ({ endpoint, ...c }))
        .sort((a, b) => b.this_month - a.this_month || (a.endpoint < b.endpoint ? -1 : 1));
      return {
        success: true,
        data: {
          requests: {
            today: usage.today,
            this_week: usage.this_week,
            this_month: usage.this_month,
            limit: {
              per_minute: perMinute,
              remaining: headerInt(reply, 'x-ratelimit-remaining', perMinute),
              resets_at: isoTime(headerInt(reply, 'x-ratelimit-reset', Math.ceil(at / 60_000) * 60) * 1000),
            },
            by_endpoint: byEndpoint,
          },
          streams: { active: streams.open(auth.accountId), max: streams.max(auth.tier, auth.accountId) },
          period: { start: isoTime(month), end: isoTime(nextMonth) },
        },
      };
    },
  );

  app.get<RouteTypes<'/api/v1/account/keys'>>(
    '/account/keys',
    {
      schema: {
        tags: ['account'],
        summary: "The account's API keys",
        description: 'Every key of the account, oldest first, revoked ones included; secrets are never shown again, only `id_masked`.',
        response: {
          200: envelope(
            { type: 'array', items: apiKeySchema },
            {
              meta: {
                type: 'object',
                required: ['count', 'total', 'max_keys'],
                properties: {
                  count: { type: 'integer' },
                  total: { type: 'integer' },
                  active: { type: 'integer' },
                  max_keys: { type: 'integer' },
                },
              },
            },
          ),
          ...authErrorResponses,
        },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const at = now();
      const list = keys.keysOf(auth.accountId).map((k) => presentKey(k, at, auth.keyId));
      return {
        success: true,
        data: list,
        // `active`: the keys that work now (in a grace period too), the figure the cap counts.
        meta: { count: list.length, total: list.length, active: accounts.countedKeys(auth.accountId), max_keys: TIERS[auth.tier].maxKeys },
      };
    },
  );

  app.post<RouteTypes<'/api/v1/account/keys', 'post'>>(
    '/account/keys',
    {
      schema: {
        tags: ['account'],
        summary: 'Create a key',
        description:
          'A new key in the account, with the tier of the key that asks. The secret (`key`) is in this response only. ' +
          `Active keys per account: ${TIER_NAMES.map((t) => `${t} ${TIERS[t].maxKeys}`).join(', ')}; a rotated key in its grace period counts until it expires.`,
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: { name: { type: ['string', 'null'], minLength: 1, maxLength: 100, description: 'A label for the key.' } },
        },
        response: { 201: envelope(newKeySchema), ...authErrorResponses, 503: storeDown },
      },
    },
    async (request, reply) => {
      const auth = callerOf(request);
      const max = TIERS[auth.tier].maxKeys;
      const created = await accounts.serially(auth.accountId, async () => {
        const held = accounts.countedKeys(auth.accountId);
        if (held >= max) {
          const more = TIER_NAMES.find((t) => TIERS[t].maxKeys > max);
          const message = `The ${auth.tier} tier allows ${max} active key${max === 1 ? '' : 's'} per account, a key in a rotation grace period counting as one, and this account has ${held}: revoke one${more ? `, or move to the ${more} tier (${TIERS[more].maxKeys} keys)` : ''}`;
          throw more ? tierRefusal(auth.tier, more, message) : new ApiError('feature_required', message, {}, { tier: auth.tier });
        }
        return viaStore(() => accounts.createKey(auth.accountId, { tier: auth.tier, name: request.body?.name ?? null }));
      });
      void reply.code(201);
      return { success: true, data: presentNewKey(created.record, created.secret) };
    },
  );

  app.delete<RouteTypes<'/api/v1/account/keys/{keyId}', 'delete'>>(
    '/account/keys/:keyId',
    {
      schema: {
        tags: ['account'],
        summary: 'Revoke a key',
        description:
          'Revokes at once, on every replica (this one before answering, the others within a second of the answer). The key that sends the request cannot revoke itself (rotate it instead). Revoking a revoked key answers the same.',
        params: keyIdParams,
        response: {
          200: envelope(
            {
              type: 'object',
              required: ['id', 'revoked'],
              properties: {
                id: { type: 'string' },
                revoked: { type: 'boolean' },
                revoked_at: { type: 'string', format: 'date-time' },
                deleted: { type: 'boolean' },
                key_id: { type: 'string' },
                message: { type: 'string' },
              },
            },
            { deleted: { type: 'boolean' }, key_id: { type: 'string' }, message: { type: 'string' } },
          ),
          ...authErrorResponses,
          400: errorResponse('validation_error: the key in use cannot revoke itself; invalid_request: a malformed key id.'),
          404: notFoundResponse,
          503: storeDown,
        },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const id = request.params.keyId;
      ownKey(auth, id);
      if (id === auth.keyId)
        throw new ApiError(
          'validation_error',
          'This request was sent with the key it asks to revoke: revoke it with another key of the account, or rotate it',
        );
      const revoked = await viaStore(() => accounts.revokeKey(id));
      const message = `Key ${id} is revoked`;
      const result = { id, revoked: true, revoked_at: isoTime(revoked?.revokedAt ?? now()), deleted: true, key_id: id, message };
      return { success: true, data: result, deleted: true, key_id: id, message };
    },
  );

  app.post<RouteTypes<'/api/v1/account/keys/{keyId}/rotate', 'post'>>(
    '/account/keys/:keyId/rotate',
    {
      schema: {
        tags: ['account'],
        summary: 'Rotate a key',
        description:
          'Issues a new key with the same tier (and name, unless `name` is given) and retires the old one: at once with ' +
          '`gracePeriodHours` 0 (the default), else when the grace period ends. The key in use may rotate itself. A key is rotated ' +
          'once (409 conflict names its successor), and an account holds at most one key in a grace period per active key ' +
          '(409 conflict names the keys in grace; rotating with gracePeriodHours 0 is always possible).',
        params: keyIdParams,
        body: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: {
            gracePeriodHours: {
              type: 'integer',
              minimum: 0,
              maximum: 72,
              default: 0,
              description: 'Hours the old key keeps working, 0 to 72.',
            },
            name: { type: ['string', 'null'], minLength: 1, maxLength: 100, description: "Name of the new key; the old one's by default." },
          },
        },
        response: {
          200: envelope({
            type: 'object',
            required: ['new_key', 'old_key', 'new_key_id', 'old_key_id', 'old_key_expires_at'],
            properties: {
              new_key: newKeySchema,
              old_key: {
                type: 'object',
                required: ['id', 'revoked', 'expires_at'],
                properties: {
                  id: { type: 'string' },
                  revoked: { type: 'boolean', description: 'True when retired at once (no grace period).' },
                  expires_at: { type: ['string', 'null'], format: 'date-time' },
                },
              },
              new_key_id: { type: 'string' },
              old_key_id: { type: 'string' },
              old_key_expires_at: {
                type: ['string', 'null'],
                format: 'date-time',
                description: 'When the old key stops working; null when it already has.',
              },
            },
          }),
          ...authErrorResponses,
          404: notFoundResponse,
          409: errorResponse(
            'conflict: the key was already rotated (the message names its successor), or the account already holds as many keys in a grace period as active keys (the message names them).',
          ),
          503: storeDown,
        },
      },
    },
    async (request) => {
      const auth = callerOf(request);
      const id = request.params.keyId;
      const current = ownKey(auth, id);
      const status = keyStatus(current, now());
      if (status === 'revoked' || status === 'expired')
        throw new ApiError('not_found', `Key '${id}' is ${status}: there is nothing to rotate`);
      const rotation = await accounts.serially(auth.accountId, () =>
        viaStore(() =>
          accounts.rotateKey(id, {
            graceHours: request.body?.gracePeriodHours ?? 0,
            ...(request.body?.name === undefined ? {} : { name: request.body.name }),
          }),
        ),
      );
      if (!rotation) throw new ApiError('not_found', `Key '${id}' is revoked: there is nothing to rotate`);
      const { next, old } = rotation;
      const expiresAt = old.active && old.expiresAt !== null ? isoTime(old.expiresAt) : null;
      return {
        success: true,
        data: {
          new_key: presentNewKey(next.record, next.secret),
          old_key: { id: old.id, revoked: !old.active, expires_at: expiresAt },
          new_key_id: next.record.id,
          old_key_id: old.id,
          old_key_expires_at: expiresAt,
        },
      };
    },
  );
};

/** Only the store's own errors are its failure here: anything else from key management is a bug (500). */
const ACCOUNT_STORE: StoreFailure = {
  message: () => 'The account store is not reachable; retry shortly',
  isStoreFailure: (e) => e instanceof StoreError,
};

/** A key-management call: a store that does not answer is 503, a clashing key 409. */
function viaStore<T>(op: () => Promise<T>): Promise<T> {
  return fromStore(async () => {
    try {
      return await op();
    } catch (e) {
      if (e instanceof KeyConflict) throw new ApiError('conflict', e.message);
      throw e;
    }
  }, ACCOUNT_STORE);
}

function headerInt(reply: FastifyReply, name: string, fallback: number): number {
  const v = Number(reply.getHeader(name));
  return Number.isFinite(v) ? v : fallback;
}
