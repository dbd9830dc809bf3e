import type { Role } from '@leadex/domain';
import {
  IconAddressBook,
  IconApi,
  IconArrowBackUp,
  IconBuildingStore,
  IconFileDollar,
  IconHome,
  IconListDetails,
  IconLogout,
  IconMessage,
  IconSettings,
  IconTargetArrow,
  IconUserCircle,
  IconUsers,
  IconWebhook,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

/** One entry of a role's side navigation. */
export interface NavItem {
  label: string;
  to: string;
  icon: ComponentType<{ size?: number | string; stroke?: number }>;
  /** Whether the current location belongs to this entry (detail pages light up their list's entry). */
  isActive: (pathname: string, search: URLSearchParams) => boolean;
}

const under =
  (...prefixes: string[]) =>
  (pathname: string) =>
    prefixes.some((p) => pathname === p || pathname.startsWith(`${p}/`));

const item = (label: string, to: string, icon: NavItem['icon'], ...also: string[]): NavItem => ({
  label,
  to,
  icon,
  isActive: to === '/' ? (pathname) => pathname === '/' : under(to, ...also),
});

const logout = item('Logout', '/logout', IconLogout);

/** The menus of spec §2 (both documents), in their order; Logout closes each. */
export const MENUS: Record<Role, NavItem[]> = {
  admin: [
    item('Home', '/', IconHome),
    item('Leads', '/leads', IconListDetails, '/lead'),
    item('Returns', '/returns', IconArrowBackUp),
    item('Buyers', '/buyers', IconUsers, '/buyer'),
    item('Campaigns', '/campaigns', IconTargetArrow, '/campaign'),
    item('Sources', '/sources', IconBuildingStore, '/source'),
    item('Bills', '/bills', IconFileDollar, '/bill'),
    // The spec's menus are exact: Suppression and Compliance open from Settings (the buyer's from its Profile).
    item('Settings', '/settings', IconSettings, '/sim', '/suppression', '/compliance'),
    item('Custom Deliveries', '/deliveries', IconWebhook, '/delivery'),
    item('Messages', '/messages', IconMessage),
    logout,
  ],
  buyer: [
    item('Home', '/', IconHome),
    item('Profile', '/buyer', IconUserCircle, '/suppression'),
    item('Leads', '/leads', IconListDetails, '/lead'),
    item('Campaigns', '/campaigns', IconTargetArrow, '/campaign'),
    item('Bills', '/bills', IconFileDollar, '/bill'),
    item('Custom Deliveries', '/deliveries', IconWebhook, '/delivery'),
    logout,
  ],
  // Spec: /source is both the source's home (the welcome page while onboarding, else its details) and
  // its profile. Home is /source; Profile is /source?tab=profile, which always shows the details, so the
  // profile stays reachable while the welcome page is up.
  source: [
    {
      label: 'Home',
      to: '/source',
      icon: IconHome,
      isActive: (pathname, search) => pathname === '/source' && search.get('tab') !== 'profile',
    },
    {
      label: 'Profile',
      to: '/source?tab=profile',
      icon: IconAddressBook,
      isActive: (pathname, search) => pathname === '/source' && search.get('tab') === 'profile',
    },
    item('Leads', '/leads', IconListDetails, '/lead'),
    item('API Doc', '/doc', IconApi),
    logout,
  ],
};

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', buyer: 'Buyer', source: 'Source' };

/** Where each role lands after signing in, and where its unknown paths lead (spec §2). */
export const HOME_OF: Record<Role, string> = { admin: '/', buyer: '/', source: '/source' };
