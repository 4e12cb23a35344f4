/**
 * Cuts the way from the worker's own objects to code generation. The sandbox's `vm` context cannot
 * compile strings, but the host objects it lends (`fetch`, `console.log`, `URL`, the Yao runtime, …)
 * belong to the worker's realm, where `fetch.constructor.constructor('return process')()` would
 * compile code with the real `process` in scope. Done once per thread, it costs nothing per call.
 *
 * This closes that well-known door; it does not make the sandbox a security boundary (see README):
 * the worker isolates faults, and scripts are trusted code.
 */
export function closeHostCodeGeneration(): void {
  // Taken before any is replaced: each prototype's `constructor` is what user code would reach.
  const generators = [
    Function,
    Object.getPrototypeOf(async function () {}).constructor as FunctionConstructor,
    Object.getPrototypeOf(function* () {}).constructor as FunctionConstructor,
    Object.getPrototypeOf(async function* () {}).constructor as FunctionConstructor,
  ];
  for (const generator of generators) {
    const name = generator.name;
    // Same name, so inspecting a host function still prints `[Function: …]`.
    const refuse = {
      [name]: function () {
        throw new EvalError(`${name}() from a host object is disabled in the script sandbox`);
      },
    }[name]!;
    Object.defineProperty(generator.prototype, 'constructor', {
      value: refuse,
      writable: false,
      enumerable: false,
      configurable: false,
    });
  }
}
