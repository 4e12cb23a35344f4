/**
 * A problem with one case's `input`, worded without a location; the loader adds `file:line`, and
 * `fix` when the problem has its own remedy (otherwise it points to the input shapes).
 */
export class InputShapeError extends Error {
  constructor(
    message: string,
    readonly fix?: string,
  ) {
    super(message);
  }
}

/** `string`, `number`, `array`, `null`, `object`: the JSON name of a value's type, for messages. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
