#!/usr/bin/env node
// The CLI's own entry, not the `@agentest/cli` barrel: `agentest --version` and `--help` load the command
// declarations only, never the kernel, the plugins or their SDKs.
import '@agentest/cli/bin';
