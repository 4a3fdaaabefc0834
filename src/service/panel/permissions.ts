/** What a panel role may do; every panel route names the one it needs and checks it on the server. */
export const PERMISSIONS = [
  'view',
  'punish',
  'pardon',
  'see-ip',
  'manage-tickets',
  'manage-users',
  'manage-servers',
  'migrate',
  'pardon-own',
  'manage-notes',
  'view-chat-log',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export const isPermission = (value: string): value is Permission => (PERMISSIONS as readonly string[]).includes(value);

/** What each permission allows, as the roles page explains it. */
export const PERMISSION_DESCRIPTIONS: Record<Permission, string> = {
  view: 'see the dashboard, players, punishments, tickets and servers',
  punish: 'issue bans, mutes, kicks and warnings; add evidence',
  pardon: 'pardon punishments',
  'see-ip': 'see and search players by IP address',
  'manage-tickets': 'reply to, assign, close and reopen tickets; decide appeals',
  'manage-users': 'create staff accounts, change their roles, disable them, reset passwords; edit roles',
  'manage-servers': 'manage the game servers of the network',
  migrate: 'upload migration files',
  'pardon-own': 'pardon only the punishments they issued themselves',
  'manage-notes': "edit and delete other staff members' notes and comments",
  'view-chat-log': "read players' chat lines and commands on the player page",
};

export interface RoleDefinition {
  name: string;
  permissions: readonly Permission[];
  builtIn: boolean;
}

/** Roles every network has; custom roles are stored per network beside them. */
export const BUILT_IN_ROLES: readonly RoleDefinition[] = [
  { name: 'admin', permissions: PERMISSIONS, builtIn: true },
  {
    name: 'moderator',
    permissions: ['view', 'punish', 'pardon', 'see-ip', 'manage-tickets', 'view-chat-log'],
    builtIn: true,
  },
  { name: 'helper', permissions: ['view', 'punish', 'manage-tickets'], builtIn: true },
  { name: 'viewer', permissions: ['view'], builtIn: true },
];

export const SUPERUSER_ROLE = 'admin';

export const builtInRole = (name: string): RoleDefinition | undefined =>
  BUILT_IN_ROLES.find((role) => role.name === name);
