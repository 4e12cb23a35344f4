/** A function declared at the top level of a file (column 0), as the line-based scan finds it. */
export interface DeclaredFunction {
  name: string;
  /** 1-based line of the declaration. */
  line: number;
  exported: boolean;
}

const FUNCTION = /^(export\s+)?(?:async\s+)?function\s+([A-Za-z_$][\w$]*)\s*[(<]/;
const DECLARATION =
  /^(export\s+)?(?:declare\s+)?(?:async\s+)?(?:function\s*\*?\s*|class\s+|(?:const\s+)?enum\s+|(?:const|let|var)\s+)([A-Za-z_$][\w$]*)/;
const EXPORT_LIST = /^export\s*(?:type\s*)?\{([^}]*)\}(?!\s*from)/gm;

/** Names the setup/teardown functions of a test file; they are never tests themselves. */
export const LIFECYCLE_FUNCTIONS = ['TestMain', 'BeforeEach', 'AfterEach'] as const;

/**
 * Top-level function declarations in file order, exported or plain (`function TestX(t, ctx)` is
 * common in real Yao files). Line-based like Yao's scanner, but it also sees `async function`.
 */
export function topLevelFunctions(source: string): DeclaredFunction[] {
  const found: DeclaredFunction[] = [];
  source.split(/\r?\n/).forEach((text, i) => {
    const match = FUNCTION.exec(text);
    if (match) found.push({ name: match[2], line: i + 1, exported: Boolean(match[1]) });
  });
  return found;
}

/** The `Test*` functions of a test file, in file order; `TestMain` is setup, not a test. */
export function discoverTests(source: string): DeclaredFunction[] {
  return topLevelFunctions(source).filter(isTestFunction);
}

export function isTestFunction(f: DeclaredFunction): boolean {
  return f.name.startsWith('Test') && f.name !== 'TestMain';
}

/**
 * Top-level names a sibling file declares without exporting them. The compiler exports them so the
 * test file can call `Total()` from `setup.ts` without an import, as Yao's shared global scope allows.
 */
export function unexportedDeclarations(source: string): string[] {
  const declared = new Set<string>();
  const exported = new Set<string>();
  for (const text of source.split(/\r?\n/)) {
    const match = DECLARATION.exec(text);
    if (!match || /^(export\s+)?declare\s/.test(text)) continue;
    (match[1] ? exported : declared).add(match[2]);
  }
  for (const list of source.matchAll(EXPORT_LIST)) {
    for (const item of list[1].split(',')) {
      const [local, as = local] = item
        .replace(/^\s*type\s+/, '')
        .trim()
        .split(/\s+as\s+/);
      if (local && local === as) exported.add(local);
    }
  }
  return [...declared].filter((name) => !exported.has(name));
}
