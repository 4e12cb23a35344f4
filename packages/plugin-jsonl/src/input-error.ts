/** A problem with one case's `input`, worded without a location; the loader adds `file:line`. */
export class InputShapeError extends Error {}

/** `string`, `number`, `array`, `null`, `object`: the JSON name of a value's type, for messages. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
