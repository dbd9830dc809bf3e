/** The headers of a post sent as an HTML form sends it. */
export const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** `fields` as an HTML form's body (application/x-www-form-urlencoded), each value as text. */
export const form = (fields: Record<string, string | boolean>) =>
  Object.entries(fields)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');

/** An API key in the Authorization header. */
export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
