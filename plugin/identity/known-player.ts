export interface KnownPlayer {
  uuid: string;
  name: string;
}

export interface PlayerDirectory {
  /** By name (case-insensitive) or UUID: online players first, then players seen before. */
  resolve(nameOrUuid: string): KnownPlayer | undefined;
}
