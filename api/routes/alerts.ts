import type { FastifyPluginAsync } from 'fastify';
import { TIERS, TIER_NAMES } from '../../schemas/index.js';
import type { Accounts } from '../accounts/index.js';
import { alertDeliverySchema, alertRuleSchema, newAlertBodySchema, newAlertRuleSchema, presentRule } from '../contract/index.js';
import { authErrorResponses, dataEnvelope, errorResponse, notFoundResponse, pagingParams } from '../contract/index.js';
import type { RouteTypes } from '../contract/index.js';
import type { ServingDeps } from '../deps.js';
import { alertDeliveries, alertRuleList, createAlertRule, deleteAlertRule, ownRule } from '../queries/index.js';
import { callerOf, noStore } from '../plugins/index.js';

const ruleIdParams = {
  type: 'object',
  required: ['alertId'],
  properties: {
    alertId: { type: 'string', minLength: 1, maxLength: 100, description: 'The rule id (`alert_…`), as listed by GET /alerts.' },
  },
} as const;

const envelope = dataEnvelope;

const storeDown = errorResponse('unavailable: the account store is not reachable; retry shortly.');
const caps = TIER_NAMES.map((t) => `${t} ${TIERS[t].maxAlertRules}`).join(', ');

/** Alert rules and their delivery log (docs/alerts.md): routes parse, call the query layer, present. */
export const alertRoutes: FastifyPluginAsync<{ deps: ServingDeps; accounts: Accounts }> = async (app, { deps, accounts }) => {
  const rules = accounts.keys.rules;
  app.addHook('onRequest', noStore);

  app.post<RouteTypes<'/api/v1/alerts', 'post'>>(
    '/alerts',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Create an alert rule',
        description:
          "A rule on one opportunity list with that list's filters; each opportunity that enters the list is posted to `webhook_url`, signed (X-Signature: HMAC-SHA256 of `<X-Signature-Timestamp>.<body>` under the rule's `secret`), with an Idempotency-Key. " +
          `The secret is in this response only. Rules per account: ${caps}.`,
        body: newAlertBodySchema,
        response: { 201: envelope(newAlertRuleSchema), ...authErrorResponses, 503: storeDown },
      },
    },
    async (request, reply) => {
      const data = await createAlertRule(accounts, callerOf(request), request.body, {
        catalog: deps.catalog,
        now: deps.clock.now(),
        lines: (eventId) => deps.board.mainLines(eventId),
      });
      void reply.code(201);
      return { success: true, data };
    },
  );

  app.get<RouteTypes<'/api/v1/alerts'>>(
    '/alerts',
    {
      schema: {
        tags: ['alerts'],
        summary: "The account's alert rules",
        description: 'Every rule of the account that is not deleted, oldest first; secrets are never shown again.',
        response: {
          200: envelope(
            { type: 'array', items: alertRuleSchema },
            {
              type: 'object',
              required: ['count', 'max_rules'],
              properties: { count: { type: 'integer' }, max_rules: { type: 'integer' } },
            },
          ),
          ...authErrorResponses,
        },
      },
    },
    async (request) => ({ success: true, ...alertRuleList(rules, callerOf(request)) }),
  );

  app.get<RouteTypes<'/api/v1/alerts/{alertId}'>>(
    '/alerts/:alertId',
    {
      schema: {
        tags: ['alerts'],
        summary: 'One alert rule',
        description: "A rule of the account with its filters and webhook; never its secret. Another account's rule is 404.",
        params: ruleIdParams,
        response: { 200: envelope(alertRuleSchema), ...authErrorResponses, 404: notFoundResponse },
      },
    },
    async (request) => ({ success: true, data: presentRule(ownRule(rules, callerOf(request), request.params.alertId)) }),
  );

  app.delete<RouteTypes<'/api/v1/alerts/{alertId}', 'delete'>>(
    '/alerts/:alertId',
    {
      schema: {
        tags: ['alerts'],
        summary: 'Delete an alert rule',
        description: 'At once on every replica; alerts still waiting for delivery go to the dead letter.',
        params: ruleIdParams,
        response: {
          200: envelope({
            type: 'object',
            required: ['id', 'deleted'],
            properties: { id: { type: 'string' }, deleted: { type: 'boolean' } },
          }),
          ...authErrorResponses,
          404: notFoundResponse,
          503: storeDown,
        },
      },
    },
    async (request) => ({ success: true, data: await deleteAlertRule(accounts, callerOf(request), request.params.alertId) }),
  );

  app.get<RouteTypes<'/api/v1/alerts/{alertId}/deliveries'>>(
    '/alerts/:alertId/deliveries',
    {
      schema: {
        tags: ['alerts'],
        summary: "A rule's delivery log",
        description:
          'Finished deliveries, newest first: delivered, or dead-lettered (retry budget spent, a 4xx answer, a full queue, the rule deleted). `outcome=dead_letter` lists the dead letter.',
        params: ruleIdParams,
        querystring: {
          type: 'object',
          properties: {
            outcome: { type: 'string', enum: ['delivered', 'dead_letter'], description: 'Only deliveries with this outcome.' },
            ...pagingParams(50, 500, 100_000),
          },
        },
        response: {
          200: envelope(
            { type: 'array', items: alertDeliverySchema },
            {
              type: 'object',
              required: ['count', 'outcome'],
              properties: { count: { type: 'integer' }, outcome: { type: ['string', 'null'] } },
            },
          ),
          ...authErrorResponses,
          404: notFoundResponse,
          503: errorResponse('unavailable: the delivery log is not reachable; retry shortly.'),
        },
      },
    },
    async (request) => {
      return { success: true, ...(await alertDeliveries(deps.store, rules, callerOf(request), request.params.alertId, request.query)) };
    },
  );
};
