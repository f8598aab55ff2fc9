export { acceptableFallback, templateOrigins } from './fallback.js';
export { DEEP_LINK_PATH, DeepLinkResolver, deepLinkUrl, legDeepLink } from './resolver.js';
export type { DeepLinkType, LinkRequest, ResolvedLink } from './resolver.js';
export { RowIdIndex } from './row-index.js';
export { deepLinkStateParam, linkInState, putStateInLinks, requestedState, stateOf } from './state.js';
export { DEFAULT_STATE, US_STATES, builtInTemplates, fillTemplate } from '../../schemas/index.js';
export type { DeepLinkTemplates } from '../../schemas/index.js';
export { PublicOrigin } from './public-origin.js';
