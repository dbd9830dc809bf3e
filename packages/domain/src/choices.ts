/**
 * The values of a choice, in the order of its labels: each value is declared once, as a key of the
 * labels object (keys keep the order they are written in), and comes back as the non-empty tuple
 * `z.enum` takes.
 */
export const valuesOf = <Value extends string>(labels: Record<Value, string>): readonly [Value, ...Value[]] =>
  Object.keys(labels) as [Value, ...Value[]];
