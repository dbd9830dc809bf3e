/**
 * Colour arithmetic for WCAG 2 contrast (issue 9, item 8): the theme derives its text colours from the
 * palettes with it, so that every text reads at AA (4.5:1) on the surfaces it is drawn on.
 */

/** WCAG 2 AA for normal-size text. */
export const AA = 4.5;
/** What the theme aims for: AA with a little room, so rounding in a browser or a checker never tips it under. */
export const AA_TARGET = 4.6;

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb {
  const digits = hex.replace('#', '');
  const full =
    digits.length === 3
      ? digits
          .split('')
          .map((d) => d + d)
          .join('')
      : digits;
  const channel = (at: number) => Number.parseInt(full.slice(at, at + 2), 16);
  return [channel(0), channel(2), channel(4)];
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

/** `a` moved by `t` (0 to 1) towards `b`, as a hex colour. */
export function mix(a: string, b: string, t: number): string {
  const [from, to] = [parseHex(a), parseHex(b)];
  const step = (i: 0 | 1 | 2) => from[i] + (to[i] - from[i]) * t;
  return toHex([step(0), step(1), step(2)]);
}

/** WCAG 2 relative luminance of a hex colour. */
export function luminance(hex: string): number {
  const linear = (channel: number) => {
    const v = channel / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = parseHex(hex);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2 contrast ratio of two hex colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05);
}

/**
 * The lightest colour, walking down `palette` from shade `from` (between neighbouring shades in tenths,
 * past shade 9 towards black), that reads at `min` on every one of `backgrounds`. It keeps the palette's
 * hue and moves no further from the wanted shade than contrast asks.
 */
export function readableShade(
  palette: readonly string[],
  from: number,
  backgrounds: readonly string[],
  min = AA_TARGET,
): string {
  const reads = (color: string) => backgrounds.every((background) => contrast(color, background) >= min);
  // The palette's shades from `from` on, then black; each step mixes one into the next in tenths.
  const stops = [...palette.slice(from), '#000000'];
  for (let i = 0; i + 1 < stops.length; i++) {
    for (let tenth = 0; tenth < 10; tenth++) {
      const color = mix(stops[i] ?? '#000000', stops[i + 1] ?? '#000000', tenth / 10);
      if (reads(color)) return color;
    }
  }
  return '#000000';
}
