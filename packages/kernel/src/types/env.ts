/**
 * Environment variables as a function takes them (`process.env`, or a test's own object). Declared
 * here rather than as `NodeJS.ProcessEnv` so that the published declarations type-check in a
 * project without `@types/node`.
 */
export type EnvironmentVariables = Record<string, string | undefined>;
