import { readFileSync } from 'node:fs';

/** The page's template, stylesheet and script, read once. They sit in `assets/`, beside both `src/` and `dist/`. */
export interface Assets {
  template: string;
  css: string;
  js: string;
}

let cached: Assets | undefined;

export function loadAssets(): Assets {
  const read = (name: string) => readFileSync(new URL(`../assets/${name}`, import.meta.url), 'utf8');
  cached ??= { template: read('report.ejs'), css: read('report.css'), js: read('report.js') };
  return cached;
}
