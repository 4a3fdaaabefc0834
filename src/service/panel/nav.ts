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
  { href: '/panel/tickets', label: 'Tickets', permission: 'view' },
  { href: '/panel/frozen', label: 'Frozen', permission: 'view' },
  { href: '/panel/servers', label: 'Servers', permission: 'view' },
  { href: '/panel/audit', label: 'Audit', permission: 'view' },
  { href: '/panel/migration', label: 'Migration', permission: 'migrate' },
  { href: '/panel/accounts', label: 'Accounts', permission: 'manage-users' },
  { href: '/panel/roles', label: 'Roles', permission: 'manage-users' },
  { href: '/panel/ladder', label: 'Ladder', permission: 'view' },
  { href: '/panel/staff-limits', label: 'Staff limits', permission: 'manage-users' },
  { href: '/panel/rollback', label: 'Rollback', permission: 'manage-users' },
];
