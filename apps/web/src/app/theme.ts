import {
  Badge,
  Button,
  Card,
  Code,
  type CSSVariablesResolver,
  createTheme,
  DEFAULT_THEME,
  defaultVariantColorsResolver,
  Input,
  type MantineColorsTuple,
  Modal,
  Notification,
  Paper,
  parseThemeColor,
  ScrollArea,
  Slider,
  Title,
  type VariantColorsResolver,
} from '@mantine/core';
import { AA_TARGET, contrast, luminance, mix, readableShade } from './contrast';

/** Leadex blue: the brand colour of buttons, links and the active navigation item. */
const brand: MantineColorsTuple = [
  '#eef4ff',
  '#dce6fb',
  '#b6caf2',
  '#8dadea',
  '#6a93e3',
  '#5483df',
  '#477bde',
  '#3869c5',
  '#2e5db1',
  '#1f509d',
];

const PRIMARY_SHADE = 7;
const WHITE = '#ffffff';
const BLACK = '#000000';
const GRAY = DEFAULT_THEME.colors.gray;
const PALETTES: Record<string, MantineColorsTuple> = { ...DEFAULT_THEME.colors, brand };

/**
 * Issue 9, item 8: every text reads at WCAG AA (4.5:1). Mantine's default shades do not (dimmed gray.6
 * is 3.3:1 on white, a light badge's green.9 on green.1 3.8:1, yellow's 2.7:1, a filled red button's
 * white on red.7 3.8:1), so the theme keeps each palette's hue and takes, for each use, the lightest
 * colour of that palette that reads on what it is drawn on (contrast.ts).
 *
 * The surfaces text sits on: white cards and inputs, the gray.0 panels, gray.1 row hovers and stripes.
 */
export const SURFACES = [WHITE, GRAY[0], GRAY[1]];

interface Readable {
  /**
   * Text in the colour (`c="red"`, errors, outline badges and buttons) on the surfaces and on the
   * colour's own pale background (a red message in a red alert).
   */
  text: string;
  /** Text of a light badge or button, on its pale background (shade 1, shade 2 when hovered). */
  lightColor: string;
  /** A filled badge or button: its background and the colour of its label. */
  filled: { background: string; color: string };
}

function readableColors(palette: MantineColorsTuple): Readable {
  const base = palette[PRIMARY_SHADE];
  let filled = { background: base, color: WHITE };
  if (contrast(base, WHITE) < AA_TARGET) {
    // Yellow and lime stay bright under a black label; the others darken under their white one.
    filled =
      luminance(base) > 0.35
        ? { background: base, color: BLACK }
        : { background: readableShade(palette, PRIMARY_SHADE, [WHITE]), color: WHITE };
  }
  return {
    text: readableShade(palette, PRIMARY_SHADE, [...SURFACES, palette[1]]),
    lightColor: readableShade(palette, 9, [palette[1], palette[2]]),
    filled,
  };
}

export const READABLE: Record<string, Readable> = Object.fromEntries(
  Object.entries(PALETTES).map(([name, palette]) => [name, readableColors(palette)]),
);
const READABLE_RED = readableColors(DEFAULT_THEME.colors.red);

/** Links: brand blue that reads on the surfaces and inside the light alerts the app shows. */
export const ANCHOR = readableShade(brand, PRIMARY_SHADE, [
  ...SURFACES,
  ...(['red', 'yellow', 'green', 'blue'] as const).map((name) => DEFAULT_THEME.colors[name][1]),
  brand[1],
]);

/** Descriptions, captions, placeholders and other secondary text: gray, but readable (gray.6 is not). */
export const DIMMED = readableShade(GRAY, 6, SURFACES);

/** Filled badges and buttons in a palette's colour get the readable background and label. */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'filled') return colors;
  const parsed = parseThemeColor({ color: input.color || input.theme.primaryColor, theme: input.theme });
  const readable = parsed.isThemeColor && parsed.shade === undefined ? READABLE[parsed.color] : undefined;
  if (!readable || readable.filled.background === input.theme.colors[parsed.color]?.[PRIMARY_SHADE]) {
    return readable ? { ...colors, color: readable.filled.color } : colors;
  }
  return {
    ...colors,
    background: readable.filled.background,
    hover: mix(readable.filled.background, BLACK, 0.12),
    color: readable.filled.color,
  };
};

/**
 * The light colour scheme's text colours (the app has no dark scheme): passed to MantineProvider, which
 * lays them over Mantine's own variables.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': DIMMED,
    '--mantine-color-placeholder': DIMMED,
    '--mantine-color-error': READABLE_RED.text,
    '--mantine-color-anchor': ANCHOR,
    ...Object.fromEntries(
      Object.entries(READABLE).flatMap(([name, readable]) => [
        [`--mantine-color-${name}-text`, readable.text],
        [`--mantine-color-${name}-light-color`, readable.lightColor],
        [`--mantine-color-${name}-outline`, readable.text],
      ]),
    ),
  },
  dark: {},
});

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: PRIMARY_SHADE,
  colors: { brand },
  variantColorResolver,
  defaultRadius: 'md',
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
  components: {
    Paper: Paper.extend({ defaultProps: { radius: 'md' } }),
    Card: Card.extend({ defaultProps: { radius: 'md', withBorder: true } }),
    // Sentence case: badges say 'Active', 'Live', as the specs write them.
    Badge: Badge.extend({ defaultProps: { tt: 'none', fw: 600 } }),
    Button: Button.extend({ defaultProps: { radius: 'md' } }),
    Title: Title.extend({ defaultProps: { c: 'dark.7' } }),
    // A region that scrolls (a wide table) can be scrolled from the keyboard: its viewport takes focus.
    ScrollArea: ScrollArea.extend({ defaultProps: { viewportProps: { tabIndex: 0 } } }),
    // Not the lists that size to their content (a select's options, reached with the arrow keys: a
    // listbox may hold options only), which hold focusable items anyway.
    ScrollAreaAutosize: ScrollArea.Autosize.extend({ defaultProps: { viewportProps: {} } }),
    // A toast's message reads like dimmed text, which gray.6 does not; its close button says what it does.
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: (_theme, props: { title?: unknown }) => ({
        description: props.title ? { color: 'var(--mantine-color-dimmed)' } : {},
      }),
    }),
    Slider: Slider.extend({ styles: { markLabel: { color: 'var(--mantine-color-dimmed)' } } }),
    // A code block wraps its long lines rather than scrolling sideways, which a keyboard could not do.
    Code: Code.extend({
      styles: (_theme, props: { block?: boolean }) => ({
        root: props.block ? { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } : {},
      }),
    }),
    // A dialog's × button says what it does (Mantine draws an icon only).
    Modal: Modal.extend({
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Close dialog' },
        // A dialog's <header> (its title and close button) is no second banner beside the app's header
        // (axe-core's landmark-no-duplicate-banner): the dialog names itself by its title already.
        attributes: { header: { role: 'presentation' } },
      },
    }),
    // Issue 9: a field in error keeps its placeholder dimmed (Mantine paints it red, like a typed value).
    Input: Input.extend({ styles: { wrapper: { '--input-placeholder-color': 'var(--mantine-color-placeholder)' } } }),
  },
});
