import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { CommandSender, PermissionDefault, PermissionSpec, Permissions } from './plugin-api.js';
import { readYamlFile } from './yaml-file.js';

/**
 * `<serverDir>/permissions.yml`: nodes granted per player, keyed by name (case-insensitive) or
 * UUID. `-node` revokes a node, `prefix.*` and `*` grant a whole subtree.
 */
export const permissionsFileSchema = z.object({
  players: z
    .record(z.string(), z.array(z.string().min(1)).nullable())
    .nullable()
    .default({})
    .transform((value) => value ?? {}),
});

export type PermissionGrants = Record<string, readonly string[] | null>;

/** Reads `<serverDir>/permissions.yml`; a missing file grants nothing. */
export function readPermissionsFile(serverDir: string): PermissionGrants {
  const file = join(serverDir, 'permissions.yml');
  if (!existsSync(file)) return {};
  return readYamlFile(file, permissionsFileSchema, 'permissions file', 'BAILIFF_CONFIG').players;
}

/** Lower-case, dashes removed: names and UUIDs compare the same however they were written. */
function identityKey(nameOrUuid: string): string {
  return nameOrUuid.trim().toLowerCase().replaceAll('-', '');
}

/** A declaration of a node another plugin owns: it was ignored. */
export interface PermissionConflict {
  node: string;
  /** The plugin whose declaration counts. */
  owner: string;
  /** The plugin whose declaration was ignored. */
  ignored: string;
}

/** Whether `node` is in the plugin's own namespace: `bailiff.ban` for Bailiff. */
function isNamespaceOf(plugin: string, node: string): boolean {
  return node.toLowerCase().startsWith(`${plugin.toLowerCase()}.`);
}

interface PlayerIdentity {
  name: string;
  uuid?: string;
}

export interface PermissionServiceOptions {
  /** Names or UUIDs of server operators. @default [] */
  ops?: readonly string[];
  /** From permissions.yml. @default {} */
  grants?: PermissionGrants;
}

/**
 * Decides permissions: the console has every node; for a player an explicit grant or revoke
 * in permissions.yml wins, then the node's declared default (true, false or op); an
 * undeclared node defaults to op.
 */
export class PermissionService implements Permissions {
  private ops = new Set<string>();
  private grants = new Map<string, Map<string, boolean>>();
  private readonly defaults = new Map<string, PermissionDefault>();
  private readonly owners = new Map<string, string>();

  constructor(options: PermissionServiceOptions = {}) {
    this.setOps(options.ops ?? []);
    this.setGrants(options.grants ?? {});
  }

  setOps(ops: readonly string[]): void {
    this.ops = new Set(ops.map(identityKey));
  }

  setGrants(grants: PermissionGrants): void {
    this.grants = new Map(
      Object.entries(grants).map(([who, nodes]) => [
        identityKey(who),
        new Map((nodes ?? []).map((node) => (node.startsWith('-') ? [node.slice(1), false] : [node, true]))),
      ]),
    );
  }

  /**
   * Records the defaults declared in plugin `plugin`'s plugin.yml `permissions` section. A node
   * belongs to the plugin that declared it first, or to the plugin its first segment names
   * (`bailiff.ban` is Bailiff's, whatever loaded first): another plugin's declaration of it is
   * ignored and returned, for the caller to warn about.
   */
  declare(plugin: string, permissions: Record<string, PermissionSpec>): PermissionConflict[] {
    const ignored: PermissionConflict[] = [];
    for (const [node, spec] of Object.entries(permissions)) {
      const owner = this.owners.get(node);
      if (owner === undefined || owner === plugin || (isNamespaceOf(plugin, node) && !isNamespaceOf(owner, node))) {
        if (owner !== undefined && owner !== plugin) ignored.push({ node, owner: plugin, ignored: owner });
        this.owners.set(node, plugin);
        this.defaults.set(node, spec.default);
      } else {
        ignored.push({ node, owner, ignored: plugin });
      }
    }
    return ignored;
  }

  /** The plugin a node belongs to, when one declared it. */
  ownerOf(node: string): string | undefined {
    return this.owners.get(node);
  }

  isOp(nameOrUuid: string): boolean {
    return this.ops.has(identityKey(nameOrUuid));
  }

  has(sender: CommandSender, node: string): boolean {
    if (sender.kind === 'console') return true;
    return this.playerHas({ name: sender.name, uuid: (sender as { uuid?: string }).uuid }, node);
  }

  playerHas(player: PlayerIdentity, node: string): boolean {
    const explicit = this.explicitGrant(player.uuid, node) ?? this.explicitGrant(player.name, node);
    if (explicit !== undefined) return explicit;
    const declared = this.defaults.get(node) ?? 'op';
    if (declared === 'op') return this.isOp(player.name) || (player.uuid !== undefined && this.isOp(player.uuid));
    return declared;
  }

  private explicitGrant(who: string | undefined, node: string): boolean | undefined {
    if (who === undefined) return undefined;
    const nodes = this.grants.get(identityKey(who));
    if (!nodes) return undefined;
    const exact = nodes.get(node);
    if (exact !== undefined) return exact;
    // Most specific wildcard first: a.b.* before a.* before *.
    const parts = node.split('.');
    for (let length = parts.length - 1; length >= 0; length--) {
      const wildcard = length === 0 ? '*' : `${parts.slice(0, length).join('.')}.*`;
      const value = nodes.get(wildcard);
      if (value !== undefined) return value;
    }
    return undefined;
  }
}
