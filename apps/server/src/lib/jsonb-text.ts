/**
 * A JSON value as PostgreSQL prints a jsonb (its canonical text): object keys ordered by length, then
 * by their UTF-8 bytes; `", "` between members and `": "` after keys; strings escaped as JSON. The
 * consent evidence's hash is the SHA-256 of this text (docs/compliance.md), so anyone holding the
 * record can check it without a database.
 */
export function jsonbText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jsonbText).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => {
    const [x, y] = [Buffer.from(a), Buffer.from(b)];
    return x.length - y.length || Buffer.compare(x, y);
  });
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${jsonbText(v)}`).join(', ')}}`;
}
