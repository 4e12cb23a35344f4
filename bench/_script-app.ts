// The generated Yao app of the script benchmarks (bench/script-bench.ts, bench/coverage-overhead.ts).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A temporary app of `files` assistants `a0…`, each with a `calc.ts` module and a `calc_test.ts` of
 * `testsPerFile` test functions (3 assertions each, two calling the module). `calcExtra` is appended to
 * every `calc.ts`.
 */
export function writeScriptApp(prefix: string, files: number, testsPerFile: number, calcExtra = ''): string {
  const app = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(join(app, 'app.yao'), '{}');
  for (let f = 0; f < files; f++) {
    const src = join(app, `assistants/a${f}/src`);
    mkdirSync(src, { recursive: true });
    writeFileSync(join(app, `assistants/a${f}/package.yao`), '{"name":"bench","connector":"mock"}');
    writeFileSync(
      join(src, 'calc.ts'),
      'export function Sum(xs: number[]): number { return xs.reduce((a, b) => a + b, 0); }\nfunction Square(n: number) { return n * n; }\n' +
        calcExtra,
    );
    const tests = Array.from(
      { length: testsPerFile },
      (_, i) =>
        `function Test${i}(t: any, ctx: any) {\n  t.assert.Equal(Sum([${i}, 1]), ${i + 1});\n  t.assert.Equal(Square(${i}), ${i * i});\n  t.assert.Equal(ctx.User.ID, 'test-user');\n}`,
    );
    writeFileSync(join(src, 'calc_test.ts'), tests.join('\n'));
  }
  return app;
}
