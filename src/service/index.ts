/** The service client's public surface, for code outside src/service. */
export { type ClientOptions, type ClientStats, collect, type ProjectId, ServiceClient } from "./client.js";
export { type Connection, checkHost, clientFromEnv, isLoopback, parseRateLimit } from "./env.js";
export { NetworkError, ServiceError, UnknownOutcomeError } from "./errors.js";
export { featureKeys } from "./events.js";
export type { Query } from "./query.js";
export type { Method, RequestSpec } from "./transport.js";
