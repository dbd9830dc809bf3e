/** An environment variable's positive number (a bench's seconds, connections, rate), or `fallback` when unset or empty. */
export function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not '${raw}'`);
  return value;
}
