import type { Role } from '@leadex/domain';

/** Whose data a request may see: the role and the buyer or source it belongs to. */
export interface Viewer {
  userId: string;
  role: Role | null;
  roleId: string | null;
  /** The client address of the request (the access log's, issue 35); absent outside a request. */
  address?: string;
}

/**
 * The buyer whose records (campaigns, deliveries) a viewer may see: undefined for an admin (every
 * buyer's), else its own; a buyer user linked to no buyer gets '', which matches nothing.
 */
export function buyerScopeOf(viewer: Viewer): string | undefined {
  if (viewer.role === 'admin') return undefined;
  return viewer.roleId ?? '';
}

/** Whether a record of the buyer `buyerId` is one the viewer may see (DESIGN.md §3 rule 3). */
export function maySeeBuyer(viewer: Viewer, buyerId: string): boolean {
  const scope = buyerScopeOf(viewer);
  return scope === undefined || scope === buyerId;
}
