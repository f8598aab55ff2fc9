export { alertBody, alertId } from './alert.js';
export type { Alert } from './alert.js';
export { DEFAULT_DELIVERY, WebhookDelivery, fetchPoster, retryableStatus } from './delivery.js';
export type { DeliveryOptions, WebhookPoster } from './delivery.js';
export { AlertDetector } from './detector.js';
export type { DetectorDeps } from './detector.js';
export { SIGNATURE_TOLERANCE_SECONDS, WEBHOOK_HEADERS, signWebhook, verifyWebhook } from './signature.js';
export { DELIVERY_GROUP, startAlerting } from './alerting.js';
export type { Alerting } from './alerting.js';
