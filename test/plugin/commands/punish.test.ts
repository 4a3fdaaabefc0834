import { afterEach, describe, expect, it } from 'vitest';
import { punishCommand } from '../../../plugin/commands/punish.js';
import type { PreviewResponse } from '../../../src/contract/schemas.js';
import { CommandUsageError } from '../../../src/runtime/plugin-api.js';
import { NOW, plain, STEVE, type TestDeps, testDeps } from './helpers/command-deps.js';
import { apiError, unreachable } from './helpers/fake-api.js';
import { fakeSender } from './helpers/fake-sender.js';

const DAY = 86_400_000;
const PREVIEW: PreviewResponse = {
  status: 200,
  success: true,
  socialStatus: 'low',
  gameplayStatus: 'medium',
  socialPoints: 0,
  gameplayPoints: 7,
  offenseLevel: 'medium',
  singleSeverity: { action: 'ban', duration: 60 * DAY },
  lenient: { action: 'ban', duration: 14 * DAY },
  regular: { action: 'ban', duration: 60 * DAY },
  aggravated: { action: 'ban', duration: -1 },
};

let deps: TestDeps;
afterEach(() => deps?.db.close());

function serviceUp(): TestDeps {
  return testDeps({
    api: {
      previewPunishment: async () => PREVIEW,
      createPunishmentDynamic: async () => ({ punishmentId: 'p-42', message: 'created' }),
    },
  });
}

async function run(args: string[], sender = fakeSender({ kind: 'player', name: 'Mod' })) {
  await punishCommand(deps).execute({ sender, label: 'punish', args });
  return sender;
}

describe('/punish', () => {
  it("says what the player's next warning triggers on the network's warning ladder", async () => {
    const nextWarning = {
      ladder: 'Chat conduct',
      warnings: 3,
      triggers: { typeOrdinal: 1, title: 'Manual Mute', duration: DAY },
    };
    deps = testDeps({
      api: {
        previewPunishment: async () => ({ ...PREVIEW, nextWarning }),
        createPunishmentDynamic: async () => ({ punishmentId: 'p-43', message: 'created' }),
      },
    });
    const sender = await run(['steve', 'cheating', 'flying']);
    expect(plain(sender.messages)).toEqual([
      'Cheating for Steve (regular, offence level medium): ban, 60d',
      'Their next warning (number 3) triggers Manual Mute, 1d on the warning ladder Chat conduct.',
      'Punished Steve (Cheating). Punishment ID: p-43',
    ]);

    // No line when the next warning reaches no step.
    deps.db.close();
    deps = testDeps({
      api: {
        previewPunishment: async () => ({ ...PREVIEW, nextWarning: { ...nextWarning, warnings: 2, triggers: null } }),
        createPunishmentDynamic: async () => ({ punishmentId: 'p-44', message: 'created' }),
      },
    });
    expect(plain((await run(['steve', 'cheating', 'flying'])).messages)).toHaveLength(2);
  });

  it('shows the outcome, creates with dynamic create, applies at once and tells the id', async () => {
    deps = serviceUp();
    const sender = await run(['steve', 'cheating', 'aggravated', 'flying', 'hacks']);

    expect(plain(sender.messages)).toEqual([
      'Cheating for Steve (aggravated, offence level medium): ban, permanent',
      'Punished Steve (Cheating). Punishment ID: p-42',
    ]);
    expect(deps.client.calls).toEqual([
      { method: 'previewPunishment', args: [{ playerUuid: STEVE.uuid, typeOrdinal: 14 }] },
      {
        method: 'createPunishmentDynamic',
        args: [
          {
            targetUuid: STEVE.uuid,
            typeOrdinal: 14,
            issuerName: 'Mod',
            issuerWeight: 100,
            severity: 'aggravated',
            reason: 'flying hacks',
            duration: -1,
          },
          { idempotencyKey: 'punish:id-1' },
        ],
      },
    ]);
    expect(deps.applied).toEqual([
      {
        id: 'p-42',
        targetUuid: STEVE.uuid,
        targetName: 'Steve',
        issuerName: 'Mod',
        typeOrdinal: 14,
        reason: 'flying hacks',
        duration: -1,
        createdAt: new Date(NOW).toISOString(),
        status: 'active',
        started: null,
      },
    ]);
    expect(deps.outboxRows()).toEqual([]);
  });

  it('defaults to regular, takes the type by ordinal or slug in any case, and sends no empty reason', async () => {
    deps = serviceUp();
    const sender = await run(['Steve', 'Chat-Abuse']);
    await run(['Steve', '14'], sender);

    expect(plain(sender.messages)[0]).toBe('Chat Abuse for Steve (regular, offence level medium): ban, 60d');
    const creates = deps.client.calls.filter((call) => call.method === 'createPunishmentDynamic');
    expect(creates.map((call) => call.args[0])).toEqual([
      {
        targetUuid: STEVE.uuid,
        typeOrdinal: 6,
        issuerName: 'Mod',
        issuerWeight: 100,
        severity: 'regular',
        duration: 60 * DAY,
      },
      {
        targetUuid: STEVE.uuid,
        typeOrdinal: 14,
        issuerName: 'Mod',
        issuerWeight: 100,
        severity: 'regular',
        duration: 60 * DAY,
      },
    ]);
    expect(deps.applied.map((punishment) => punishment.duration)).toEqual([60 * DAY, 60 * DAY]);
  });

  it('refuses an unknown player before calling the service', async () => {
    deps = serviceUp();
    const sender = await run(['Herobrine', 'cheating']);
    expect(plain(sender.messages)).toEqual([
      'Unknown player Herobrine: never seen on this server, and players.profileLookupUrl is empty: give their UUID.',
    ]);
    expect(deps.client.calls).toEqual([]);
  });

  it('lists the valid types for an unknown one', async () => {
    deps = serviceUp();
    const sender = await run(['Steve', 'griefing']);
    expect(plain(sender.messages)).toEqual([
      'Unknown punishment type griefing. Valid types: 0 kick, 2 manual-ban, 6 chat-abuse, 14 cheating',
    ]);
    expect(deps.client.calls).toEqual([]);
  });

  it('refuses a disabled type', async () => {
    deps = serviceUp();
    const sender = await run(['Steve', 'bad-skin']);
    expect(plain(sender.messages)).toEqual(['The punishment type Bad Skin is disabled on the moderation service.']);
    expect(deps.client.calls).toEqual([]);
  });

  it('reads the third word as the start of the reason when it is not a severity (regular then)', async () => {
    deps = serviceUp();
    await run(['Steve', 'chat-abuse', 'spamming', 'the', 'chat']);
    const creates = deps.client.calls.filter((call) => call.method === 'createPunishmentDynamic');
    expect(creates.map((call) => call.args[0])).toEqual([
      {
        targetUuid: STEVE.uuid,
        typeOrdinal: 6,
        issuerName: 'Mod',
        issuerWeight: 100,
        severity: 'regular',
        reason: 'spamming the chat',
        duration: 60 * DAY,
      },
    ]);
  });

  it('announces to staff unless -s (anywhere) makes it silent', async () => {
    deps = serviceUp();
    await run(['Steve', 'cheating', 'aggravated', 'flying']);
    expect(plain(deps.staffLines)).toEqual(['[Bailiff] Mod banned Steve permanently: flying']);
    await run(['Alex', '-s', 'cheating', 'flying']);
    expect(deps.staffLines).toHaveLength(1);
    expect(deps.applied).toHaveLength(2);
  });

  it('refuses a ban type while a ban runs, naming it; -r pardons it first; a mute type is not held back by a ban', async () => {
    deps = testDeps({
      api: {
        previewPunishment: async () => PREVIEW,
        createPunishmentDynamic: async () => ({ punishmentId: `p-${deps.client.calls.length}`, message: 'created' }),
        pardonPunishment: async () => ({ success: true, message: 'pardoned' }),
      },
    });
    await run(['Steve', 'cheating', 'flying']);
    const refused = await run(['Steve', 'cheating', 'again']);
    expect(plain(refused.messages)).toEqual([
      'Steve is already banned (ID p-2, time left: 60d). Add -r to replace that ban.',
    ]);
    const muted = await run(['Steve', 'chat-abuse', 'spam']);
    expect(plain(muted.messages).at(-1)).toBe('Punished Steve (Chat Abuse). Punishment ID: p-4');
    const replaced = await run(['Steve', 'cheating', '-r', 'again']);
    expect(plain(replaced.messages).slice(0, 1)).toEqual(['The running ban of Steve (p-2) is pardoned to replace it.']);
    expect(deps.cache.get('p-2')?.status).toBe('pardoned');
    expect(deps.cache.activeBan(STEVE.uuid, NOW)?.id).toBe('p-7');
  });

  it('refuses to punish an exempt player from in game, not from the console', async () => {
    deps = testDeps({
      exempt: ['Steve'],
      api: {
        previewPunishment: async () => PREVIEW,
        createPunishmentDynamic: async () => ({ punishmentId: 'p-42', message: 'created' }),
      },
    });
    const sender = await run(['Steve', 'cheating']);
    expect(plain(sender.messages)).toEqual(['Steve cannot be punished: they hold bailiff.exempt.']);
    expect(deps.client.calls).toEqual([]);
    const console = await run(['Steve', 'cheating'], fakeSender({ kind: 'console' }));
    expect(plain(console.messages).at(-1)).toBe('Punished Steve (Cheating). Punishment ID: p-42');
  });

  it('throws a usage error without player and type', async () => {
    deps = serviceUp();
    await expect(run(['Steve'])).rejects.toBeInstanceOf(CommandUsageError);
  });

  it('queues the creation in the outbox when the service is unreachable', async () => {
    deps = testDeps({
      api: {
        previewPunishment: unreachable('previewPunishment'),
        createPunishmentDynamic: unreachable('createPunishmentDynamic'),
      },
      types: unreachable('punishmentTypes'),
    });
    const sender = await run(['Steve', '14', 'lenient', 'x-ray']);

    expect(plain(sender.messages)).toEqual([
      'The moderation service cannot take it now: the #14 punishment of Steve is queued and will be sent as soon as it can.',
    ]);
    expect(deps.outboxRows()).toEqual([
      {
        operation: 'createPunishmentDynamic',
        payload: {
          targetUuid: STEVE.uuid,
          typeOrdinal: 14,
          issuerName: 'Mod',
          issuerWeight: 100,
          severity: 'lenient',
          reason: 'x-ray',
        },
        idempotencyKey: 'punish:id-1',
        orderingKey: `player:${STEVE.uuid}`,
      },
    ]);
    expect(deps.applied).toEqual([]);
  });

  it.each([
    ['a 503', apiError('http', 'createPunishmentDynamic', { status: 503, serviceMessage: 'down' })],
    ['a 429', apiError('rate_limited', 'createPunishmentDynamic', { status: 429 })],
    ['a timeout', apiError('timeout', 'createPunishmentDynamic')],
  ])('queues the creation after %s', async (_, error) => {
    deps = testDeps({
      api: { previewPunishment: async () => PREVIEW, createPunishmentDynamic: () => Promise.reject(error) },
    });
    const sender = await run(['Steve', 'cheating']);
    expect(plain(sender.messages).at(-1)).toContain('is queued and will be sent as soon as it can');
    expect(deps.outboxRows().map((row) => row.operation)).toEqual(['createPunishmentDynamic']);
    // The preview told the duration: applied here at once under a local id, and queued with it.
    expect(deps.outboxRows()[0]?.payload).toMatchObject({ duration: 60 * DAY });
    expect(deps.cache.activeBan(STEVE.uuid, NOW)?.id).toMatch(/^local-/);
  });

  it('cannot resolve a type name while the catalogue is unreachable, and says to use the number', async () => {
    deps = testDeps({ types: unreachable('punishmentTypes') });
    const sender = await run(['Steve', 'cheating']);
    expect(plain(sender.messages)).toEqual([
      'The moderation service cannot be reached right now (types). Try again later.',
      'Give the type as its number (0-14) while the type list cannot be read.',
    ]);
    expect(deps.outboxRows()).toEqual([]);
  });

  it("shows the service's message for a 404 and queues nothing", async () => {
    deps = testDeps({
      api: {
        previewPunishment: async () => PREVIEW,
        createPunishmentDynamic: () =>
          Promise.reject(
            apiError('http', 'createPunishmentDynamic', { status: 404, serviceMessage: 'player not found' }),
          ),
      },
    });
    const sender = await run(['Steve', 'cheating']);
    expect(plain(sender.messages).at(-1)).toBe('The moderation service refused (punish, 404): player not found');
    expect(deps.outboxRows()).toEqual([]);
    expect(deps.applied).toEqual([]);
  });

  it('stops at a 404 from the preview without creating', async () => {
    deps = testDeps({
      api: {
        previewPunishment: () =>
          Promise.reject(apiError('http', 'previewPunishment', { status: 404, serviceMessage: 'player not found' })),
      },
    });
    const sender = await run(['Steve', 'cheating']);
    expect(plain(sender.messages)).toEqual(['The moderation service refused (preview, 404): player not found']);
    expect(deps.client.calls.map((call) => call.method)).toEqual(['previewPunishment']);
  });

  it('creates without applying at once when only the preview was unreachable (the sync brings it)', async () => {
    deps = testDeps({
      api: {
        previewPunishment: unreachable('previewPunishment'),
        createPunishmentDynamic: async () => ({ punishmentId: 'p-7', message: 'created' }),
      },
    });
    const sender = await run(['Steve', 'cheating']);
    expect(plain(sender.messages)).toEqual(['Punished Steve (Cheating). Punishment ID: p-7']);
    expect(deps.applied).toEqual([]);
    expect(deps.outbox.stats()).toMatchObject({ pending: 0, inFlight: 0, sent: 1 });
  });

  it('still tells the id when applying locally throws', async () => {
    deps = testDeps({
      api: {
        previewPunishment: async () => PREVIEW,
        createPunishmentDynamic: async () => ({ punishmentId: 'p-8', message: 'created' }),
      },
      overrides: {
        applyCreated: () => {
          throw new Error('cache is closed');
        },
      },
    });
    const sender = await run(['Steve', 'cheating']);
    expect(plain(sender.messages).at(-1)).toBe('Punished Steve (Cheating). Punishment ID: p-8');
  });

  it('uses the console name as issuer', async () => {
    deps = serviceUp();
    await run(['Steve', 'kick'], fakeSender({ kind: 'console', name: 'CONSOLE' }));
    const create = deps.client.calls.find((call) => call.method === 'createPunishmentDynamic');
    expect(create?.args[0]).toMatchObject({ issuerName: 'CONSOLE', typeOrdinal: 0 });
  });
});
