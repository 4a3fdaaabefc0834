import { describe, expect, it } from 'vitest';
import type { KnownPlayer } from '../../../plugin/identity/known-player.js';
import { ProfileLookupError } from '../../../plugin/identity/profile-lookup.js';
import { type IdentitySources, identifyPlayer } from '../../../plugin/identity/resolve-player.js';
import { offlineUuid, xuidUuid } from '../../../src/minecraft/offline-uuid.js';
import type { ServerInfo } from '../../../src/runtime/plugin-api.js';

const STEVE: KnownPlayer = { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Steve' };
const JAVA_OFFLINE: ServerInfo = { edition: 'java', onlineMode: false };
const JAVA_ONLINE: ServerInfo = { edition: 'java', onlineMode: true };
const BEDROCK_ONLINE: ServerInfo = { edition: 'bedrock', onlineMode: true };
const BEDROCK_OFFLINE: ServerInfo = { edition: 'bedrock', onlineMode: false };

function sources(server: ServerInfo, extra: Partial<IdentitySources> = {}) {
  const asked: string[] = [];
  const all: IdentitySources = {
    server,
    known: (input) => (input.toLowerCase() === 'steve' || input === STEVE.uuid ? STEVE : undefined),
    fromService: async (name) => {
      asked.push(`service:${name}`);
      return undefined;
    },
    ...extra,
  };
  return { all, asked };
}

describe('who a player argument means', () => {
  it('takes any UUID as given, dashed or not, and names it after the player when known', async () => {
    const { all } = sources(JAVA_ONLINE);
    expect(await identifyPlayer('FC55E5030B2C4B1E8E6E2D1C0B0A0908', all)).toEqual({
      player: { uuid: 'fc55e503-0b2c-4b1e-8e6e-2d1c0b0a0908', name: 'fc55e503-0b2c-4b1e-8e6e-2d1c0b0a0908' },
      source: 'uuid',
    });
    expect(await identifyPlayer(STEVE.uuid.toUpperCase(), all)).toEqual({ player: STEVE, source: 'known' });
  });

  it("resolves a name through this server's players, then the service, before anything else", async () => {
    const alex = { uuid: '853c80ef-3c37-49fd-aa49-938b674adae6', name: 'Alex' };
    const { all, asked } = sources(JAVA_OFFLINE, { fromService: async (name) => (name === 'alex' ? alex : undefined) });
    expect(await identifyPlayer('STEVE', all)).toEqual({ player: STEVE, source: 'known' });
    expect(asked).toEqual([]);
    expect(await identifyPlayer('alex', all)).toEqual({ player: alex, source: 'service' });
  });

  it('gives a name on an offline-mode Java server its offline UUID', async () => {
    const { all, asked } = sources(JAVA_OFFLINE);
    expect(await identifyPlayer('Griefer_99', all)).toEqual({
      player: { uuid: offlineUuid('Griefer_99'), name: 'Griefer_99' },
      source: 'offline',
    });
    expect(asked).toEqual(['service:Griefer_99']);
    expect(await identifyPlayer('not-a-name', all)).toEqual({ refusal: 'commands.identify.bad-name' });
  });

  it('looks a name up on an online-mode Java server: found, no such account, lookup failing, no lookup configured', async () => {
    const notch = { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf5', name: 'Notch' };
    const profiles = async (name: string) => {
      if (name === 'broken') throw new ProfileLookupError('api.mojang.com answered 503');
      return name.toLowerCase() === 'notch' ? notch : undefined;
    };
    const { all } = sources(JAVA_ONLINE, { fromProfiles: profiles });
    expect(await identifyPlayer('notch', all)).toEqual({ player: notch, source: 'profile' });
    expect(await identifyPlayer('Ghost', all)).toEqual({ refusal: 'commands.identify.no-account' });
    expect(await identifyPlayer('broken', all)).toEqual({
      refusal: 'commands.identify.lookup-failed',
      placeholders: { problem: 'api.mojang.com answered 503' },
    });
    expect(await identifyPlayer('Ghost', sources(JAVA_ONLINE).all)).toEqual({ refusal: 'commands.identify.no-lookup' });
  });

  it('on Bedrock takes a UUID, or an XUID in online mode, and never guesses from a name', async () => {
    const xuid = '2535412345678901';
    expect(await identifyPlayer(xuid, sources(BEDROCK_ONLINE).all)).toEqual({
      player: { uuid: xuidUuid(xuid), name: xuid },
      source: 'xuid',
    });
    expect(await identifyPlayer(xuid, sources(BEDROCK_OFFLINE).all)).toEqual({
      refusal: 'commands.identify.xuid-offline',
    });
    expect(await identifyPlayer('Some Gamer', sources(BEDROCK_ONLINE).all)).toEqual({
      refusal: 'commands.identify.bedrock-name',
    });
    expect(await identifyPlayer('steve', sources(BEDROCK_OFFLINE).all)).toEqual({ player: STEVE, source: 'known' });
  });

  it('derives the UUID SerenityJS gives an Xbox player from their XUID', () => {
    // SerenityJS 0.8.21 LoginHandler.getUUIDFromXUID: version 3 of "pocket-auth-1-xuid:" + xuid.
    expect(xuidUuid('2535412345678901')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-3[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(xuidUuid('2535412345678901')).not.toBe(xuidUuid('2535412345678902'));
  });
});
