/** How much of a request, a response or an error a delivery log keeps: its first 2,000 characters. */
export const EXCERPT_CHARS = 2000;

/** The part of `text` a delivery log keeps (null stays null). */
export function excerpt(text: string): string;
export function excerpt(text: string | null | undefined): string | null;
export function excerpt(text: string | null | undefined): string | null {
  return text == null ? null : text.slice(0, EXCERPT_CHARS);
}
