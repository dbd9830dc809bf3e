/**
 * The values of a choice, in the order of its labels: each value is declared once, as a key of the
 * labels object, and comes back as the non-empty tuple `z.enum` takes. Object keys keep the order
 * they are written in as long as none looks like an array index ('0', '12'), which no value does.
 */
export const valuesOf = <Value extends string>(labels: Record<Value, string>): readonly [Value, ...Value[]] =>
  Object.keys(labels) as [Value, ...Value[]];
