import { Badge, Button, Card, createTheme, type MantineColorsTuple, Paper, Title } from '@mantine/core';

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

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: 7,
  colors: { brand },
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
  },
});
