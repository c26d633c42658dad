/** The service client's public surface, for code outside src/service. */
export {
  type AnswerEvent,
  type ClientEvent,
  type ClientOptions,
  type ClientStats,
  collect,
  type Integration,
  type NoticeOptions,
  type PageLimits,
  type Paging,
  type RetryEvent,
  ServiceClient,
  type SlowEvent,
  type Timers,
  type WaitEvent,
} from "./client.js";
export {
  type Connection,
  checkApiKey,
  checkHost,
  clientFromEnv,
  defaultBudgetFile,
  isLoopback,
  parseRateLimit,
} from "./env.js";
export { NetworkError, ServiceError, UnexpectedAnswerError, UnknownOutcomeError } from "./errors.js";
export { featureKeys } from "./events.js";
export { type ProjectId, projectPath, type Query, segment } from "./query.js";
export {
  type AnswerShape,
  answerList,
  answerObject,
  answerTypes,
  cursorPage,
  listPage,
} from "./shapes.js";
export { StoppedError } from "./stop.js";
export type { Method, RequestSpec } from "./transport.js";
