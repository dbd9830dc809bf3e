import { Code, Text } from '@mantine/core';

/** Admin §8: what the viewer says of a value that is not JSON. */
export const JSON_PARSE_ERROR = 'Error parsing json';

/** A value as the viewer shows it: text holding JSON is parsed; anything else is shown as it is. */
export function jsonViewOf(value: unknown): { ok: true; text: string } | { ok: false; raw: string } {
  if (typeof value === 'string') {
    try {
      return { ok: true, text: JSON.stringify(JSON.parse(value), null, 2) };
    } catch {
      return { ok: false, raw: value };
    }
  }
  try {
    return { ok: true, text: JSON.stringify(value ?? null, null, 2) ?? 'null' };
  } catch {
    return { ok: false, raw: String(value) };
  }
}

export interface JsonViewerProps {
  value: unknown;
  /** What an absent value reads ('None'). */
  emptyText?: string;
  /** The block's accessible name ('Metadata'). */
  label?: string;
}

/**
 * A JSON value pretty-printed (a lead's metadata or quality, a delivery's payload). A text that cannot
 * be parsed reads 'Error parsing json' (admin §8), with the text itself under it; it is only ever
 * shown as text, never run.
 */
export function JsonViewer({ value, emptyText = 'None', label }: JsonViewerProps) {
  if (value === undefined || value === null || value === '') {
    return (
      <Text fz="sm" c="dimmed">
        {emptyText}
      </Text>
    );
  }
  const view = jsonViewOf(value);
  if (!view.ok) {
    return (
      <>
        <Text fz="sm" c="red.8" fw={500}>
          {JSON_PARSE_ERROR}
        </Text>
        <Code block mt={6} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
          {view.raw}
        </Code>
      </>
    );
  }
  return (
    <Code
      block
      style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 360, overflow: 'auto' }}
      // A block that may scroll must be reachable from the keyboard (WCAG 2.1.1), so it is a named region.
      role="region"
      aria-label={label ?? 'JSON'}
      tabIndex={0}
    >
      {view.text}
    </Code>
  );
}
