import type { TestProject } from "vitest/node";
import { preparedDatabaseHash } from "./database";
import { preparePostgresTemplates } from "./global-setup";

/** The PostgreSQL suite's test files copy these templates (global-setup.ts). */
export default async function setup(project: TestProject) {
  project.provide("preparedDatabaseHash", preparedDatabaseHash());
  await preparePostgresTemplates();
}
