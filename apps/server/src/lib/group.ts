/**
 * Rows grouped under a key, each group's values in the rows' order (the map keeps the order in which
 * each key was first met).
 */
export function groupBy<R, V>(rows: Iterable<R>, keyOf: (row: R) => string, itemOf: (row: R) => V): Map<string, V[]> {
  const groups = new Map<string, V[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(itemOf(row));
    else groups.set(key, [itemOf(row)]);
  }
  return groups;
}
