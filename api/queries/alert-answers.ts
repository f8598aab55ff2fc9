import { TIERS, TIER_ORDER, isLineMoveKind } from '../../schemas/index.js';
import type { AlertFilters, AlertRuleRecord } from '../../schemas/index.js';
import { newId, newWebhookSecret } from '../accounts/index.js';
import type { Accounts, AlertRuleBook, AuthenticatedKey } from '../accounts/index.js';
import { DELIVERY_SELECT, deliveryFromRow } from '../accounts/index.js';
import { FILTER_NAMES, presentDelivery, presentRule } from '../contract/index.js';
import type { PresentedRule } from '../contract/index.js';
import type { LinesOf } from '../contract/index.js';
import type { QueryOf, RouteTypes } from '../contract/index.js';
import { ApiError } from '../errors.js';
import type { Catalog } from '../views/index.js';
import type { OlapStore } from '../../pipeline/store/index.js';
import { featureRefusal, hasFeature, tierRefusal } from './access.js';
import { alertList, alertListQuery, checkKindFields, lineMoveQuery, webhookUrlProblem } from './alert-query.js';
import { LIST_FEATURE } from './opportunities.js';
import { fromStore } from './store-failure.js';

/** A new rule as the body (REST) or the arguments (MCP) give it. */
export type NewAlertRule = RouteTypes<'/api/v1/alerts', 'post'>['Body'];

/** What creating a rule reads: the catalog for the filters, the data clock, the main lines. */
export interface AlertRuleContext {
  catalog: Catalog;
  now: number;
  lines: LinesOf;
}

const ALERT_STORE = {
  message: () => 'The account store is not reachable; retry shortly',
} as const;

/**
 * A new rule for the caller's account: the kind's feature and the tier's cap checked, the webhook
 * URL and the filters validated (the filters by the list's own parsers, refusals naming the
 * field), then written like a key. The secret is in this answer only.
 */
export async function createAlertRule(
  accounts: Accounts,
  auth: AuthenticatedKey,
  body: NewAlertRule,
  ctx: AlertRuleContext,
): Promise<PresentedRule & { secret: string }> {
  const list = alertList(body.kind);
  if (list !== null && !hasFeature(auth.tier, LIST_FEATURE[list]))
    throw featureRefusal(`Alerts on the ${list} list`, LIST_FEATURE[list], auth.tier);
  const problem = webhookUrlProblem(body.webhook_url);
  if (problem !== null) throw new ApiError('invalid_request', `Invalid body field 'webhook_url': ${problem}`);
  const filters: AlertFilters = {};
  for (const name of FILTER_NAMES) if (body[name] !== undefined) Object.assign(filters, { [name]: body[name] });
  checkKindFields(body.kind, filters);
  if (list !== null) alertListQuery(list, filters, ctx.catalog, auth.tier, ctx.now, ctx.lines);
  else if (isLineMoveKind(body.kind)) lineMoveQuery(body.kind, filters, ctx.catalog, auth.tier);
  const max = TIERS[auth.tier].maxAlertRules;
  const secret = newWebhookSecret();
  const rule = await accounts.serially(auth.accountId, async () => {
    const held = accounts.keys.rules.activeOf(auth.accountId).length;
    if (held >= max) {
      const more = TIER_ORDER.find((t) => TIERS[t].maxAlertRules > max);
      const message = `The ${auth.tier} tier allows ${max} alert rule${max === 1 ? '' : 's'} per account and this account has ${held}: delete one${more ? `, or move to the ${more} tier (${TIERS[more].maxAlertRules} rules)` : ''}`;
      throw more ? tierRefusal(auth.tier, more, message) : new ApiError('feature_required', message, {}, { tier: auth.tier });
    }
    const at = Date.now();
    const record: AlertRuleRecord = {
      id: newId('alert'),
      accountId: auth.accountId,
      keyId: auth.keyId,
      tier: auth.tier,
      name: body.name ?? null,
      kind: body.kind,
      filtersJson: JSON.stringify(filters),
      webhookUrl: body.webhook_url,
      // Stored sealed (docs/alerts.md): the tables and topics that carry rules cannot sign.
      secret: accounts.seal.seal(secret),
      createdAt: at,
      updatedAt: at,
      active: true,
      deletedAt: null,
      version: at,
    };
    return fromStore(() => accounts.writeRule(record), ALERT_STORE);
  });
  return { ...presentRule(rule), secret };
}

/** The caller's rules, oldest first (never their secrets). */
export function alertRuleList(
  rules: AlertRuleBook,
  auth: AuthenticatedKey,
): { data: PresentedRule[]; meta: { count: number; max_rules: number } } {
  const data = rules.activeOf(auth.accountId).map(presentRule);
  return { data, meta: { count: data.length, max_rules: TIERS[auth.tier].maxAlertRules } };
}

/** One of the caller's rules; another account's rule is as unknown as a made-up id. */
export function ownRule(rules: AlertRuleBook, auth: AuthenticatedKey, id: string): AlertRuleRecord {
  const rule = rules.rule(id);
  if (!rule || rule.accountId !== auth.accountId || !rule.active) throw new ApiError('not_found', `No alert rule '${id}' in this account`);
  return rule;
}

/** Deletes at once on every replica; what waits to be delivered goes to the dead letter. */
export async function deleteAlertRule(accounts: Accounts, auth: AuthenticatedKey, id: string): Promise<{ id: string; deleted: true }> {
  const rule = ownRule(accounts.keys.rules, auth, id);
  const at = Date.now();
  await fromStore(
    () => accounts.writeRule({ ...rule, active: false, deletedAt: at, updatedAt: at, version: Math.max(rule.version + 1, at) }),
    ALERT_STORE,
  );
  return { id, deleted: true };
}

export type DeliveriesQuery = QueryOf<'/api/v1/alerts/{alertId}/deliveries'>;

/** A rule's delivery log, newest first, from the store (written by the replica that delivers). */
export async function alertDeliveries(
  store: OlapStore,
  rules: AlertRuleBook,
  auth: AuthenticatedKey,
  id: string,
  q: DeliveriesQuery,
): Promise<{ data: ReturnType<typeof presentDelivery>[]; meta: { count: number; outcome: string | null } }> {
  ownRule(rules, auth, id);
  const rows = await fromStore(
    () => store.query(DELIVERY_SELECT, { rule: id, outcome: q.outcome ?? '', limit: q.limit, offset: q.offset }),
    { message: () => 'The delivery log is not reachable; retry shortly' },
  );
  const data = rows.map(deliveryFromRow).map(presentDelivery);
  return { data, meta: { count: data.length, outcome: q.outcome ?? null } };
}
