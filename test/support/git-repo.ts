/**
 * A real git repository in a test's folder, for `--base`: commands run with no global or system
 * configuration and a fixed author, so nothing outside the folder is read or written.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export const GIT_ENV = {
  PATH: process.env.PATH,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.com",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.com",
};

export interface Repo {
  dir: string;
  git(...args: string[]): string;
  write(path: string, text: string): void;
  remove(path: string): void;
  /** Adds everything and commits; the new commit's id. */
  commit(message?: string): string;
}

export function gitRepo(dir: string): Repo {
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8", env: GIT_ENV });
  git("init", "-q", "-b", "main");
  return {
    dir,
    git,
    write(path, text) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    },
    remove(path) {
      rmSync(join(dir, path));
    },
    commit(message = "change") {
      git("add", "-A");
      git("commit", "-q", "--allow-empty", "-m", message);
      return git("rev-parse", "HEAD").trim();
    },
  };
}
