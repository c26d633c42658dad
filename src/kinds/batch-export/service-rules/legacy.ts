/**
 * Exports created before integrations (service-api.md §0, §4): the newest service still edits them
 * but refuses to create one, and it migrated every legacy `S3` export to `AwsS3` (`S3Compatible` when
 * it had an `endpoint_url`) with an integration holding its keys. These helpers say so in plans, with
 * the integration form to declare instead.
 */
import { type DesiredDestination, INTEGRATION_KIND, MOVED_TO_INTEGRATION } from "./destinations.js";

/** The newest type a legacy S3 destination became (or becomes). */
export function newestS3Type(destination: DesiredDestination): "AwsS3" | "S3Compatible" {
  return typeof destination.config.endpoint_url === "string" ? "S3Compatible" : "AwsS3";
}

/** True when the declared legacy S3 export is live as the AwsS3 / S3Compatible the service made of it. */
export function isMigratedS3(declaredType: string | undefined, liveType: string): boolean {
  return declaredType === "S3" && (liveType === "AwsS3" || liveType === "S3Compatible");
}

/** `{type: AwsS3, integration: <id of an aws-s3 integration>, config: {bucket_name: acme, ...}}`. */
export function integrationForm(destination: DesiredDestination, integration?: number): string {
  const type = destination.type === "S3" ? newestS3Type(destination) : destination.type;
  const kind = INTEGRATION_KIND[type] ?? "matching";
  const moved = new Set(MOVED_TO_INTEGRATION[destination.type] ?? []);
  const config = Object.entries(destination.config)
    .filter(([key]) => !moved.has(key))
    .map(([key, value]) => `${key}: ${flow(value)}`)
    .join(", ");
  const id = integration === undefined ? `<id of ${withArticle(kind)} integration>` : String(integration);
  return `destination: {type: ${type}, integration: ${id}, config: {${config}}}`;
}

/** The warning of a create in a legacy inline form, which the newest service refuses. */
export function legacyCreateWarning(destination: DesiredDestination | undefined): string | undefined {
  if (!destination || destination.integration !== undefined) return undefined;
  const type = destination.type;
  const kind = INTEGRATION_KIND[type === "S3" ? newestS3Type(destination) : type];
  const what =
    type === "S3"
      ? `new S3 exports ("S3" is not a valid choice any more: the S3 family is AwsS3 / S3Compatible)`
      : `new ${type} exports without an integration ("Integration is required for ${type} batch exports")`;
  return `the newest PostHog service refuses ${what}; this create works only on an older service. Create ${withArticle(kind ?? "matching")} integration in PostHog (it holds the credentials) and declare ${integrationForm(destination)}`;
}

function flow(value: unknown): string {
  if (typeof value === "string" && /^[\w./@:+-]+$/.test(value) && !/^[-:]/.test(value)) return value;
  return JSON.stringify(value);
}

/** `an aws-s3`, `a snowflake`. */
export function withArticle(word: string): string {
  return `${/^(?:[aeio]|s3)/i.test(word) ? "an" : "a"} ${word}`;
}
