import type { Permission } from './permissions.js';

export interface NavItem {
  href: string;
  label: string;
  permission: Permission;
}

/** The staff layout's navigation, shown by permission; each page area adds its line here. */
export const STAFF_NAV: readonly NavItem[] = [
  { href: '/panel/', label: 'Dashboard', permission: 'view' },
  { href: '/panel/players', label: 'Players', permission: 'view' },
  { href: '/panel/accounts', label: 'Accounts', permission: 'manage-users' },
  { href: '/panel/roles', label: 'Roles', permission: 'manage-users' },
];
