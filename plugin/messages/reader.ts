/** Who reads a message: a player (their client's language, else the one they last used here), or nobody in particular. */
export interface MessageReader {
  readonly uuid?: string;
  readonly locale?: string;
}

/** The reader a player is: online, their client's language; else the one they last used here. */
export function readerByUuid(
  players: { byUuid(uuid: string): { locale?: string } | undefined },
  uuid: string,
): MessageReader {
  return { uuid, locale: players.byUuid(uuid)?.locale };
}
