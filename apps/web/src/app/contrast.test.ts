import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { AA, contrast, mix, readableShade } from './contrast';
import { ANCHOR, cssVariablesResolver, DIMMED, READABLE, SURFACES, theme } from './theme';

describe('contrast arithmetic (WCAG 2)', () => {
  it('rates black on white 21:1 and a colour on itself 1:1', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#ffffff', '#000')).toBeCloseTo(21, 5);
    expect(contrast('#868e96', '#868e96')).toBe(1);
  });

  it("agrees with axe-core on Mantine's dimmed gray.6 on white: 3.32", () => {
    expect(contrast('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
  });

  it('mixes in steps and walks a palette down to the first shade that reads', () => {
    expect(mix('#000000', '#ffffff', 0.5)).toBe('#808080');
    const gray = DEFAULT_THEME.colors.gray;
    expect(readableShade(gray, 7, ['#ffffff'])).toBe(gray[7]);
    const dimmed = readableShade(gray, 6, ['#ffffff']);
    expect(contrast(dimmed, '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(dimmed, '#ffffff')).toBeLessThan(contrast(gray[7], '#ffffff'));
  });
});

/** Issue 9, item 8: the theme's text colours read at AA on what they are drawn on. */
describe('the theme’s text colours', () => {
  const colors = Object.entries(READABLE);

  it('covers every palette of the theme', () => {
    expect(colors.map(([name]) => name).sort()).toEqual(Object.keys({ ...DEFAULT_THEME.colors, brand: 1 }).sort());
  });

  it('dims secondary text and placeholders no further than AA allows', () => {
    for (const surface of SURFACES) expect(contrast(DIMMED, surface)).toBeGreaterThanOrEqual(AA);
  });

  it('draws links in a brand blue that reads on the surfaces and in the light alerts', () => {
    const { red, yellow, green, blue } = DEFAULT_THEME.colors;
    for (const background of [...SURFACES, red[1], yellow[1], green[1], blue[1]])
      expect(contrast(ANCHOR, background)).toBeGreaterThanOrEqual(AA);
  });

  it.each(colors)('%s: text, light badge and filled badge all read at AA', (name, readable) => {
    const palette = { ...DEFAULT_THEME.colors, brand: theme.colors?.brand ?? [] }[name] ?? [];
    for (const surface of [...SURFACES, palette[1] ?? '#ffffff'])
      expect(contrast(readable.text, surface)).toBeGreaterThanOrEqual(AA);
    for (const pale of [palette[1], palette[2]])
      expect(contrast(readable.lightColor, pale ?? '#ffffff')).toBeGreaterThanOrEqual(AA);
    expect(contrast(readable.filled.color, readable.filled.background)).toBeGreaterThanOrEqual(AA);
  });

  it('puts them in the CSS variables Mantine draws text with', () => {
    const full = mergeMantineTheme(DEFAULT_THEME, theme);
    const { light } = cssVariablesResolver(full);
    expect(light['--mantine-color-dimmed']).toBe(DIMMED);
    expect(light['--mantine-color-placeholder']).toBe(DIMMED);
    expect(light['--mantine-color-error']).toBe(READABLE.red?.text);
    expect(light['--mantine-color-anchor']).toBe(ANCHOR);
    expect(light['--mantine-color-green-light-color']).toBe(READABLE.green?.lightColor);
    expect(light['--mantine-color-yellow-text']).toBe(READABLE.yellow?.text);
  });

  it('gives filled badges and buttons the readable background and label', () => {
    const full = mergeMantineTheme(DEFAULT_THEME, theme);
    const resolve = full.variantColorResolver;
    const red = resolve({ color: 'red', variant: 'filled', theme: full });
    expect(red.background).toBe(READABLE.red?.filled.background);
    expect(red.color).toBe('#ffffff');
    const yellow = resolve({ color: 'yellow', variant: 'filled', theme: full });
    expect(yellow.color).toBe('#000000');
    // Colours that already read keep Mantine's own variables.
    expect(resolve({ color: 'brand', variant: 'filled', theme: full }).background).toBe(
      'var(--mantine-color-brand-filled)',
    );
  });
});
