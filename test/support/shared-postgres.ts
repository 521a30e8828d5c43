/**
 * A vitest `globalSetup` (vitest.mutation.config.ts): one PostgreSQL for every test file a test
 * runner process runs, instead of one per file. In the mutation run each mutant runs the files
 * that reach it again, and a server's start (initdb, then the server) costs seconds each time;
 * a database on a running server costs a few milliseconds. `startTestDatabase()` uses it.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.ts';

export interface SharedPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`, for creating each file's database. */
  url: string;
  port: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    sharedPostgres?: SharedPostgres;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const db = await startPostgres();
  project.provide('sharedPostgres', { url: db.url, port: db.port });
  return () => db.stop();
}
