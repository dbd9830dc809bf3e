/** A nullable column as an optional field of an answer: null is left out. */
export const orUndefined = <T>(value: T | null): T | undefined => value ?? undefined;

/** The contact columns a buyer and a source share, as the API answers them. */
export function contactOf(row: {
  email: string;
  phone: string;
  address: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
}) {
  return {
    email: row.email,
    phone: row.phone,
    address: orUndefined(row.address),
    city: orUndefined(row.city),
    state: orUndefined(row.state),
    zip: orUndefined(row.zip),
  };
}
