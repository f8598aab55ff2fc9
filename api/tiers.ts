// The tier table lives in schemas/ (the pipeline process reads it too); the API imports it here.
export * from '../schemas/tiers.js';
