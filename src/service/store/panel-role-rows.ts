/** A role a network defined beside the built-in ones. */
export interface CustomRole {
  name: string;
  permissions: string[];
}

/** A row of `service_panel_roles` as both databases' role queries select it. */
export interface PanelRoleRow {
  name: string;
  /** A JSON array of permission names. */
  permissions: string;
}

export function toCustomRole(row: PanelRoleRow): CustomRole {
  return { name: row.name, permissions: JSON.parse(row.permissions) as string[] };
}
