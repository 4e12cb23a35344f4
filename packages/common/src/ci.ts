/**
 * Whether the process runs on CI: `CI` set to anything but empty, `0` or `false`, as CI services
 * set it. On CI a focused test (`test.only`) is refused, as Playwright's forbidOnly does.
 */
export function isCi(env: Record<string, string | undefined> = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}
