/**
 * The action's inputs, read as the composite action read them: paths split on blanks or one per line,
 * command and prune checked, a version that can only name a registry release, and the CLI's environment
 * with connection settings only when given and none of the action's INPUT_* variables.
 */
import { describe, expect, it } from "vitest";
import { cliEnv, InputError, type InputName, readInputs, splitPaths } from "../../src/action/inputs.js";

function inputs(given: Partial<Record<InputName, string>>) {
  const defaults: Record<InputName, string> = {
    command: "plan",
    paths: "posthog",
    environments: "",
    "promote-from": "",
    host: "",
    project: "",
    "api-key": "",
    "api-keys": "",
    prune: "false",
    undeclared: "false",
    base: "",
    "changed-only": "false",
    comment: "false",
    "comment-header": "posthog-gitops",
    "github-token": "ghs_x",
    "working-directory": ".",
    version: "",
  };
  const all = { ...defaults, ...given };
  return readInputs((name, trim) => (trim ? all[name].trim() : all[name]));
}

describe("the environments inputs (SPEC §9)", () => {
  it("name the environments to plan or apply, or all", () => {
    expect(inputs({ environments: "staging production" }).environments).toEqual(["staging", "production"]);
    expect(inputs({ environments: "staging\nproduction\n" }).environments).toEqual(["staging", "production"]);
    expect(inputs({ environments: "all" }).environments).toEqual(["all"]);
    expect(() => inputs({ environments: "all staging" })).toThrow(InputError);
    expect(() => inputs({ environments: "--all" })).toThrow(/input environments must be environment names/);
  });

  it("take each environment's key as VARIABLE=key, one a line, and never show a key in a message", () => {
    const keys = "POSTHOG_API_KEY_STAGING=phx_s1\n\n  POSTHOG_API_KEY_PRODUCTION = phx_p2  \n";
    expect(inputs({ "api-keys": keys }).apiKeys).toEqual({
      POSTHOG_API_KEY_STAGING: "phx_s1",
      POSTHOG_API_KEY_PRODUCTION: "phx_p2",
    });
    expect(() => inputs({ "api-keys": "phx_secret_only" })).toThrow(/line 1: write VARIABLE=key/);
    try {
      inputs({ "api-keys": "A=ok\nnot a name=phx_hidden_value" });
    } catch (error) {
      expect((error as Error).message).toMatch(/line 2/);
      expect((error as Error).message).not.toContain("phx_hidden_value");
    }
    expect(() => inputs({ "api-keys": "PATH=/tmp" })).toThrow(/PATH is not a variable for a key/);
    const env = cliEnv(
      { INPUT_API_KEYS: "x" },
      { host: "", project: "", apiKey: "", apiKeys: { K_STAGING: "phx_s" } },
    );
    expect(env).toEqual({ K_STAGING: "phx_s" });
  });
});

describe("the promote inputs (SPEC §9 Promotion)", () => {
  it("name the environment to promote from, and at most one to plan", () => {
    expect(inputs({ command: "promote", "promote-from": "staging" })).toMatchObject({
      command: "promote",
      promoteFrom: "staging",
      environments: [],
    });
    expect(
      inputs({ command: "promote", "promote-from": "staging", environments: "production" }).environments,
    ).toEqual(["production"]);
    expect(() => inputs({ command: "promote" })).toThrow(/input promote-from must name the environment/);
    expect(() => inputs({ command: "promote", "promote-from": "--write" })).toThrow(/input promote-from/);
    expect(() => inputs({ command: "promote", "promote-from": "staging", environments: "all" })).toThrow(
      /promote plans one environment/,
    );
    expect(() => inputs({ command: "plan", "promote-from": "staging" })).toThrow(/is for command promote/);
  });
});

describe("the inputs", () => {
  it("have today's meanings by default", () => {
    expect(inputs({})).toEqual({
      command: "plan",
      paths: ["posthog"],
      host: "",
      project: "",
      apiKey: "",
      environments: [],
      apiKeys: {},
      promoteFrom: "",
      prune: false,
      undeclared: false,
      base: "",
      changedOnly: false,
      comment: false,
      commentHeader: "posthog-gitops",
      githubToken: "ghs_x",
      workingDirectory: ".",
      version: "",
    });
    expect(inputs({ prune: "true", comment: "TRUE", "working-directory": "" })).toMatchObject({
      prune: true,
      comment: true,
      workingDirectory: ".",
    });
  });

  it("split paths on blanks, or one per line when there are several lines", () => {
    expect(splitPaths("a  b\tc")).toEqual(["a", "b", "c"]);
    expect(splitPaths("production\n  staging\n")).toEqual(["production", "staging"]);
    expect(splitPaths("my config\n\n  other one  \n")).toEqual(["my config", "other one"]);
    expect(splitPaths("one folder with spaces\n")).toEqual(["one folder with spaces"]);
    expect(splitPaths("")).toEqual([]);
    expect(inputs({ paths: "one folder with spaces\n" }).paths).toEqual(["one folder with spaces"]);
  });

  it("refuse an unknown command or prune value", () => {
    expect(() => inputs({ command: "destroy" })).toThrow(
      new InputError("input command must be validate, plan, apply or promote"),
    );
    expect(() => inputs({ command: "Plan" })).toThrow(InputError);
    expect(() => inputs({ prune: "yes" })).toThrow("input prune must be true or false");
  });

  it("take a base revision for drift, never something that reads as an option", () => {
    expect(inputs({ base: " HEAD^1 " }).base).toBe("HEAD^1");
    expect(() => inputs({ base: "--upload-pack=x" })).toThrow("input base must be a git revision");
  });

  it("take changed-only as true or false, and only with a base", () => {
    expect(inputs({ base: "HEAD^1", "changed-only": "true" }).changedOnly).toBe(true);
    expect(inputs({ base: "HEAD^1", "changed-only": "" }).changedOnly).toBe(false);
    expect(() => inputs({ base: "HEAD^1", "changed-only": "yes" })).toThrow(
      new InputError("input changed-only must be true or false"),
    );
    expect(() => inputs({ "changed-only": "true" })).toThrow(
      new InputError("input changed-only needs input base: the revision the change is measured from"),
    );
  });

  it("take a version, range or tag of the registry, nothing else", () => {
    for (const ok of [
      "0.1.0",
      "^0.1",
      "~0.1.2",
      ">=0.1.0 <0.2.0",
      "0.1.x || 0.2.x",
      "latest",
      "1.0.0-rc.1",
      "*",
    ]) {
      expect(inputs({ version: ok }).version, ok).toBe(ok);
    }
    for (const bad of [
      "file:../x",
      "git+https://x/y.git",
      "owner/repo",
      "npm:other@1",
      "-v",
      "1;rm",
      '1"',
      "1`x`",
    ]) {
      expect(() => inputs({ version: bad }), bad).toThrow(InputError);
    }
  });
});

describe("the CLI's environment", () => {
  const runner = {
    PATH: "/bin",
    POSTHOG_HOST: "https://eu.posthog.com",
    "INPUT_API-KEY": "k",
    INPUT_PATHS: "p",
  };

  it("keeps the job's POSTHOG_* settings unless an input gives one", () => {
    expect(cliEnv(runner, { host: "", project: "", apiKey: "" })).toEqual({
      PATH: "/bin",
      POSTHOG_HOST: "https://eu.posthog.com",
    });
    expect(cliEnv(runner, { host: "http://127.0.0.1:8010", project: "12", apiKey: "phx_1" })).toEqual({
      PATH: "/bin",
      POSTHOG_HOST: "http://127.0.0.1:8010",
      POSTHOG_PROJECT_ID: "12",
      POSTHOG_API_KEY: "phx_1",
    });
  });
});
