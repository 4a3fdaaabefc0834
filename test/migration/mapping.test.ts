import { describe, expect, it } from 'vitest';
import { ESSENTIALS_SKIP, mapEssentialsUser } from '../../src/migration/mapping/essentials-user.js';
import { mapVanillaEntry, VANILLA_DEFAULT_REASON, VANILLA_SKIP } from '../../src/migration/mapping/vanilla-entry.js';
import { parseVanillaDate } from '../../src/migration/sources/vanilla-date.js';
import { uuidOf, vanillaDate, vanillaEntry } from './helpers/fixtures.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const CREATED = Date.parse('2026-05-01T12:00:00Z');
const HOUR = 3_600_000;

describe('parseVanillaDate', () => {
  it('reads the vanilla format with its offset', () => {
    expect(parseVanillaDate('2024-01-31 12:00:00 +0000')).toBe(Date.parse('2024-01-31T12:00:00Z'));
    expect(parseVanillaDate('2024-01-31 12:00:00 +0130')).toBe(Date.parse('2024-01-31T10:30:00Z'));
    expect(parseVanillaDate('2024-01-31 12:00:00 -0500')).toBe(Date.parse('2024-01-31T17:00:00Z'));
  });

  it('accepts ISO 8601 and rejects what is not a date', () => {
    expect(parseVanillaDate('2024-01-31T12:00:00Z')).toBe(Date.parse('2024-01-31T12:00:00Z'));
    expect(parseVanillaDate('2024-02-31 12:00:00 +0000')).toBeUndefined();
    expect(parseVanillaDate('yesterday')).toBeUndefined();
    expect(parseVanillaDate(42)).toBeUndefined();
  });
});

describe('mapVanillaEntry', () => {
  it('maps a permanent ban to one player with one active Manual Ban', () => {
    const item = mapVanillaEntry(vanillaEntry(1, CREATED, { source: 'Notch' }), 'entry #1', NOW);
    expect(item).toEqual({
      kind: 'player',
      player: {
        minecraftUuid: uuidOf(1),
        usernames: [{ username: 'player1', date: new Date(CREATED).toISOString() }],
        punishments: [
          {
            id: `vanilla-${uuidOf(1)}-${CREATED}`,
            typeOrdinal: 2,
            reason: 'reason 1',
            issued: new Date(CREATED).toISOString(),
            issuerName: 'Notch',
            duration: -1,
            active: true,
          },
        ],
      },
    });
  });

  it('gives a temporary ban duration = expires - created, inactive once expired', () => {
    const running = mapVanillaEntry(vanillaEntry(2, CREATED, { expires: vanillaDate(NOW + HOUR) }), 'e', NOW);
    const expired = mapVanillaEntry(vanillaEntry(3, CREATED, { expires: vanillaDate(CREATED + HOUR) }), 'e', NOW);
    expect(running.kind === 'player' && running.player.punishments[0]).toMatchObject({
      duration: NOW + HOUR - CREATED,
      active: true,
    });
    expect(expired.kind === 'player' && expired.player.punishments[0]).toMatchObject({ duration: HOUR, active: false });
  });

  it('ignores unknown fields, lower-cases and dashes uuids, fills a missing reason', () => {
    const entry = vanillaEntry(4, CREATED, {
      uuid: uuidOf(4).replaceAll('-', '').toUpperCase(),
      reason: undefined,
      extra: [1],
    });
    const item = mapVanillaEntry(entry, 'e', NOW);
    expect(item.kind === 'player' && item.player.minecraftUuid).toBe(uuidOf(4));
    expect(item.kind === 'player' && item.player.punishments[0]?.reason).toBe(VANILLA_DEFAULT_REASON);
  });

  it.each([
    ['not an object', 'just text', VANILLA_SKIP.notAnObject],
    ['a bad uuid', vanillaEntry(5, CREATED, { uuid: 'nope' }), VANILLA_SKIP.badUuid],
    ['a bad name', vanillaEntry(5, CREATED, { name: 'has spaces' }), VANILLA_SKIP.badName],
    ['a bad created', vanillaEntry(5, CREATED, { created: 'soon' }), VANILLA_SKIP.badCreated],
    ['a bad expires', vanillaEntry(5, CREATED, { expires: 'never' }), VANILLA_SKIP.badExpires],
    [
      'expires < created',
      vanillaEntry(5, CREATED, { expires: vanillaDate(CREATED - HOUR) }),
      VANILLA_SKIP.expiresBeforeCreated,
    ],
  ])('skips %s with its reason and where it was', (_label, entry, reason) => {
    expect(mapVanillaEntry(entry, 'banned-players.json entry #9', NOW)).toEqual({
      kind: 'skipped',
      reason,
      where: 'banned-players.json entry #9',
    });
  });
});

describe('mapEssentialsUser', () => {
  const SAVED = NOW - 10 * HOUR;
  const file = (document: unknown) => ({ uuid: uuidOf(7), document, savedAtMs: SAVED, where: 'userdata/x.yml' });

  it('maps a permanent ban and a temporary mute to Manual Ban and Manual Mute', () => {
    const item = mapEssentialsUser(
      file({
        'last-account-name': 'Steve',
        ban: { reason: 'griefing', timeout: 0 },
        mute: true,
        muteReason: 'spam',
        timestamps: { mute: NOW + HOUR, login: 1 },
      }),
      NOW,
    );
    expect(item.kind).toBe('player');
    if (item.kind !== 'player') return;
    expect(item.player.usernames).toEqual([{ username: 'Steve', date: new Date(SAVED).toISOString() }]);
    expect(item.player.punishments).toEqual([
      expect.objectContaining({
        typeOrdinal: 2,
        reason: 'griefing',
        duration: -1,
        active: true,
        issuerName: 'Essentials',
      }),
      expect.objectContaining({ typeOrdinal: 1, reason: 'spam', duration: NOW + HOUR - SAVED, active: true }),
    ]);
  });

  it('keeps an ended ban as inactive, issued + duration = the stored end', () => {
    const end = NOW - 20 * HOUR; // before the file was saved
    const item = mapEssentialsUser(file({ lastAccountName: 'Alex', ban: { reason: 'x', timeout: end } }), NOW);
    const ban = item.kind === 'player' ? item.player.punishments[0] : undefined;
    expect(ban).toMatchObject({ active: false });
    expect(Date.parse(ban!.issued) + ban!.duration).toBe(end);
  });

  it('yields empty for a user with neither (an unban leaves an empty section)', () => {
    expect(
      mapEssentialsUser(file({ 'last-account-name': 'A', mute: false, ban: { reason: '', timeout: 0 } }), NOW),
    ).toEqual({
      kind: 'empty',
    });
  });

  it('skips a punished user without a name, a bad timeout or a non-mapping', () => {
    expect(mapEssentialsUser(file({ mute: true }), NOW)).toMatchObject({ reason: ESSENTIALS_SKIP.badName });
    expect(
      mapEssentialsUser(file({ 'last-account-name': 'A', ban: { reason: 'x', timeout: 'later' } }), NOW),
    ).toMatchObject({
      reason: ESSENTIALS_SKIP.badTimeout,
    });
    expect(mapEssentialsUser(file(['a list']), NOW)).toMatchObject({ reason: ESSENTIALS_SKIP.notAMapping });
  });
});
