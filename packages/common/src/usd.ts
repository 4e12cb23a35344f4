/**
 * A cost in US dollars as every report, message and budget says it: `$1.50` from a dollar up, `$0.0123`
 * below (four decimals, so that small costs do not read as nothing), and under a hundredth of a cent two
 * significant digits (`$0.000012`, not `$0.0000`).
 */
export function formatUsd(usd: number): string {
  if (usd > 0 && usd < 0.0001) return `$${usd.toFixed(Math.min(20, 1 - Math.floor(Math.log10(usd))))}`;
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}
