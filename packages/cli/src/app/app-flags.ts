import type { Command } from 'commander';

/** `-a` and `-e` of `agentest test` as commander hands them over. */
export interface RawAppFlags {
  app?: string;
  env?: string;
}

/** `-a/--app` and `-e/--env`, as `yao agent test` has them. */
export function addAppOptions(command: Command): void {
  command
    .option(
      '-a, --app <dir>',
      'the Yao app root, where assistants and scripts are found and whose .env is loaded (default: $YAO_ROOT, else the nearest folder holding app.yao, app.json or app.jsonc, up from the -i file or the working directory; e.g. -a ../my-app)',
    )
    .option(
      '-e, --env <file>',
      'an environment file loaded before the run, overriding variables already set (default: <app root>/.env, when it exists; e.g. -e .env.test)',
    );
}
