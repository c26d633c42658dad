/**
 * The in-memory store: the `StoreData` plus lookups shared by the routes. Every mutation goes through a
 * route that calls `touch()`, which is how `--state` persistence knows to write.
 */
import type {
  CohortRecord,
  DashboardRecord,
  FeatureFlagRecord,
  IntegrationRecord,
  OrganizationRecord,
  ProjectRecord,
  StoreData,
  UserRecord,
} from "./types.js";

export class Store {
  private listeners: Array<() => void> = [];

  constructor(public data: StoreData) {}

  replace(data: StoreData): void {
    this.data = data;
    this.touch();
  }

  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  touch(): void {
    for (const listener of this.listeners) listener();
  }

  project(id: number): ProjectRecord | undefined {
    return this.data.projects.find((p) => p.id === id);
  }

  organization(id: string): OrganizationRecord | undefined {
    return this.data.organizations.find((o) => o.id === id);
  }

  user(id: number | null): UserRecord | undefined {
    return id === null ? undefined : this.data.users.find((u) => u.id === id);
  }

  userByUuid(uuid: string): UserRecord | undefined {
    return this.data.users.find((u) => u.uuid === uuid);
  }

  isMember(user: UserRecord, orgId: string): boolean {
    return user.organizations.some((m) => m.id === orgId);
  }

  /** A live (not soft-deleted) dashboard of the project. */
  dashboard(projectId: number, id: number): DashboardRecord | undefined {
    return this.data.dashboards.find((d) => d.id === id && d.team_id === projectId && !d.deleted);
  }

  /** An integration of the project (the service's team-scoped lookup: other projects' ids do not exist). */
  integration(projectId: number, id: number): IntegrationRecord | undefined {
    return this.data.integrations.find((i) => i.id === id && i.team_id === projectId);
  }

  nextDashboardId(): number {
    return this.data.sequences.dashboard++;
  }

  nextTileId(): number {
    return this.data.sequences.tile++;
  }

  /** A feature flag of the project, soft-deleted ones included (the service's retrieve and PATCH see them). */
  featureFlag(projectId: number, id: number): FeatureFlagRecord | undefined {
    return this.data.feature_flags.find((f) => f.id === id && f.team_id === projectId);
  }

  /** A cohort of the project that is not deleted. */
  cohort(projectId: number, id: number): CohortRecord | undefined {
    return this.data.cohorts.find((c) => c.id === id && c.team_id === projectId && !c.deleted);
  }

  nextFeatureFlagId(): number {
    return this.data.sequences.feature_flag++;
  }

  nextInsightId(): number {
    return this.data.sequences.insight++;
  }

  nextTextId(): number {
    return this.data.sequences.text++;
  }
}
