import { afterEach, describe, expect, it } from 'vitest';
import { moderationCommand } from '../../../plugin/commands/moderation.js';
import { applyPunishment } from '../../../plugin/sync/apply-punishment.js';
import { offlineUuid } from '../../../src/minecraft/offline-uuid.js';
import { fakePlayer } from '../helpers/fakes.js';
import { NOW, plain, STEVE, type TestDeps, testDeps } from './helpers/command-deps.js';
import { apiError, unreachable } from './helpers/fake-api.js';
import { fakeSender } from './helpers/fake-sender.js';

const DAY = 86_400_000;
let deps: TestDeps;
afterEach(() => deps?.db.close());

function serviceUp(options: Parameters<typeof testDeps>[0] = {}): TestDeps {
  let next = 0;
  return testDeps({
    ...options,
    api: { createPunishmentDynamic: async () => ({ punishmentId: `p-${++next}`, message: 'created' }), ...options.api },
  });
}

async function run(
  name: Parameters<typeof moderationCommand>[1],
  args: string[],
  sender = fakeSender({ kind: 'player', name: 'Mod' }),
) {
  await moderationCommand(deps, name, undefined).execute({ sender, label: name, args });
  return sender;
}

const created = () =>
  deps.client.calls.filter((call) => call.method === 'createPunishmentDynamic').map((call) => call.args[0]);

describe('/ban, /tempban, /mute, /tempmute, /kick, /warn', () => {
  it('/ban without duration: a permanent Manual Ban, applied, announced, id told', async () => {
    deps = serviceUp();
    const sender = await run('ban', ['steve', 'griefing', 'spawn']);
    expect(created()).toEqual([
      {
        targetUuid: STEVE.uuid,
        typeOrdinal: 2,
        issuerName: 'Mod',
        issuerWeight: 100,
        duration: -1,
        reason: 'griefing spawn',
      },
    ]);
    expect(plain(sender.messages)).toEqual(['Banned Steve permanently. Punishment ID: p-1']);
    expect(deps.cache.activeBan(STEVE.uuid, NOW)?.id).toBe('p-1');
    expect(plain(deps.staffLines)).toEqual(['[Bailiff] Mod banned Steve permanently: griefing spawn']);
  });

  it('/ban with a duration and /tempban; /tempban without one is a clear error', async () => {
    deps = serviceUp();
    await run('ban', ['Steve', '1d12h', 'x']);
    const sender = await run('tempban', ['Alex', '7d']);
    expect(created().map((body) => (body as { duration: number }).duration)).toEqual([DAY + DAY / 2, 7 * DAY]);
    expect(plain(sender.messages)).toEqual(['Banned Alex for 7d. Punishment ID: p-2']);
    expect(plain(deps.staffLines)).toEqual([
      '[Bailiff] Mod banned Steve for 1d 12h: x',
      '[Bailiff] Mod banned Alex for 7d: no reason given',
    ]);
    const bad = await run('tempban', ['Alex', 'griefing']);
    expect(plain(bad.messages)).toEqual([
      'Bad duration griefing: use a number and a unit (s, m, h, d, w, mo, y), like 30m, 7d or 1d12h.',
    ]);
    expect(created()).toHaveLength(2);
  });

  it('/mute and /tempmute issue a Manual Mute the chat guard reads at once', async () => {
    deps = serviceUp();
    await run('mute', ['Steve', 'spam']);
    await run('tempmute', ['Alex', '30m', 'more', 'spam']);
    expect(
      created().map((body) => [(body as { typeOrdinal: number }).typeOrdinal, (body as { duration: number }).duration]),
    ).toEqual([
      [1, -1],
      [1, 30 * 60_000],
    ]);
    expect(deps.cache.activeMute(STEVE.uuid, NOW)).toBeDefined();
  });

  it('/kick needs the player online; kicks them with the kick screen', async () => {
    deps = serviceUp();
    const offline = await run('kick', ['Steve', 'calm', 'down']);
    expect(plain(offline.messages)).toEqual(['Steve is not online.']);
    expect(created()).toEqual([]);

    const steve = fakePlayer(STEVE.uuid, 'Steve');
    deps.db.close();
    deps = serviceUp({ online: [steve] });
    await run('kick', ['Steve', 'calm', 'down']);
    expect(created()).toEqual([
      {
        targetUuid: STEVE.uuid,
        typeOrdinal: 0,
        issuerName: 'Mod',
        issuerWeight: 100,
        duration: 0,
        reason: 'calm down',
      },
    ]);
    expect(steve.kickedWith).toContain('calm down');
    expect(plain(deps.staffLines)).toEqual(['[Bailiff] Mod kicked Steve: calm down']);
  });

  it('/warn creates a Kick-type record with the status warning; the online player sees it, nobody is kicked', async () => {
    const steve = fakePlayer(STEVE.uuid, 'Steve');
    deps = serviceUp({ online: [steve] });
    const sender = await run('warn', ['Steve', 'language']);
    expect(created()).toEqual([
      {
        targetUuid: STEVE.uuid,
        typeOrdinal: 0,
        issuerName: 'Mod',
        issuerWeight: 100,
        duration: 0,
        reason: 'language',
        status: 'warning',
      },
    ]);
    expect(steve.kickedWith).toBeUndefined();
    expect(plain(steve.messages)).toEqual(['You received a Warning from Mod: language. (ID p-1)']);
    expect(plain(sender.messages)).toEqual(['Warned Steve. Punishment ID: p-1']);
    expect(plain(deps.staffLines)).toEqual(['[Bailiff] Mod warned Steve: language']);
  });

  it('-s makes it silent: applied, not announced', async () => {
    deps = serviceUp();
    await run('ban', ['Steve', '-s', '7d', 'quiet']);
    expect(deps.cache.activeBan(STEVE.uuid, NOW)).toBeDefined();
    expect(deps.staffLines).toEqual([]);
  });

  it('an exempt player is refused from in game; the console may', async () => {
    deps = serviceUp({ exempt: ['steve'] });
    const mod = await run('ban', ['Steve', 'x']);
    expect(plain(mod.messages)).toEqual(['Steve cannot be punished: they hold bailiff.exempt.']);
    expect(created()).toEqual([]);
    const console = await run('ban', ['Steve', 'x'], fakeSender({ kind: 'console' }));
    expect(plain(console.messages)).toEqual(['Banned Steve permanently. Punishment ID: p-1']);
  });

  it('service unreachable: applied at once under a local id, queued, and the synced copy takes its place', async () => {
    deps = testDeps({ api: { createPunishmentDynamic: unreachable('createPunishmentDynamic') } });
    const sender = await run('ban', ['Steve', '7d', 'griefing']);
    expect(plain(sender.messages)).toEqual([
      'The moderation service cannot take it now: the ban of Steve is applied here and queued; it will be sent as soon as it can.',
    ]);
    const local = deps.cache.activeBan(STEVE.uuid, NOW);
    expect(local?.id).toMatch(/^local-/);
    expect(deps.outboxRows()).toEqual([
      {
        operation: 'createPunishmentDynamic',
        payload: {
          targetUuid: STEVE.uuid,
          typeOrdinal: 2,
          issuerName: 'Mod',
          issuerWeight: 100,
          duration: 7 * DAY,
          reason: 'griefing',
        },
        idempotencyKey: 'punish:id-1',
        orderingKey: `player:${STEVE.uuid}`,
      },
    ]);
    expect(plain(deps.staffLines)).toEqual(['[Bailiff] Mod banned Steve for 7d: griefing']);

    // Delivered later; the service's copy arrives by sync and replaces the local row.
    const { enforcement } = deps;
    const outcome = applyPunishment(enforcement, {
      id: 'svc-1',
      targetUuid: STEVE.uuid,
      targetName: 'Steve',
      issuerName: 'Mod',
      typeOrdinal: 2,
      reason: 'griefing',
      duration: 7 * DAY,
      createdAt: new Date(NOW + 5000).toISOString(),
      status: 'active',
      started: null,
    });
    expect(outcome).toBe('changed');
    expect(deps.cache.get(local!.id)).toBeUndefined();
    expect(deps.cache.activeBan(STEVE.uuid, NOW)?.id).toBe('svc-1');
  });

  it('a refusal (404) is told and changes nothing', async () => {
    deps = testDeps({
      api: {
        createPunishmentDynamic: () =>
          Promise.reject(
            apiError('http', 'createPunishmentDynamic', { status: 404, serviceMessage: 'player not found' }),
          ),
      },
    });
    const sender = await run('mute', ['Steve']);
    expect(plain(sender.messages)).toEqual(['The moderation service refused (mute, 404): player not found']);
    expect(deps.outboxRows()).toEqual([]);
    expect(deps.cache.count()).toBe(0);
  });
});

describe('one running ban and one running mute per player', () => {
  const pardonOk = async () => ({ success: true, message: 'pardoned' });

  it('refuses a second ban, naming the running one (id, time left); nothing is created', async () => {
    deps = serviceUp();
    await run('ban', ['Steve', '1h', 'x']);
    const second = await run('ban', ['Steve', '2d', 'again']);
    expect(plain(second.messages)).toEqual([
      'Steve is already banned (ID p-1, time left: 1h). Add -r to replace that ban.',
    ]);
    const mute = await run('mute', ['Steve', 'spam']);
    expect(plain(mute.messages)).toEqual(['Muted Steve permanently. Punishment ID: p-2']);
    const again = await run('tempmute', ['Steve', '1h', 'more']);
    expect(plain(again.messages)).toEqual([
      'Steve is already muted (ID p-2, time left: permanent). Add -r to replace that mute.',
    ]);
    expect(created()).toHaveLength(2);
  });

  it('-r pardons the running ban at the service, lifts it here, then creates the new one', async () => {
    deps = serviceUp({ api: { pardonPunishment: pardonOk } });
    await run('ban', ['Steve', '1h', 'x']);
    const sender = await run('ban', ['Steve', '2d', '-r', 'again']);
    expect(deps.client.calls.map((call) => call.method)).toEqual([
      'createPunishmentDynamic',
      'pardonPunishment',
      'createPunishmentDynamic',
    ]);
    expect(deps.client.calls[1]?.args).toEqual([
      { punishmentId: 'p-1', body: { issuerName: 'Mod', reason: 'replaced by a new ban' } },
    ]);
    expect(plain(sender.messages)).toEqual([
      'The running ban of Steve (p-1) is pardoned to replace it.',
      'Banned Steve for 2d. Punishment ID: p-2',
    ]);
    expect(deps.cache.get('p-1')?.status).toBe('pardoned');
    expect(deps.cache.activeBan(STEVE.uuid, NOW)?.id).toBe('p-2');
    expect(plain(deps.staffLines)).toEqual([
      '[Bailiff] Mod banned Steve for 1h: x',
      '[Bailiff] Mod unbanned Steve: replaced by a new ban',
      '[Bailiff] Mod banned Steve for 2d: again',
    ]);
  });

  it('-r creates nothing when the service takes no pardons (404)', async () => {
    deps = serviceUp({
      api: {
        pardonPunishment: () =>
          Promise.reject(apiError('http', 'pardonPunishment', { status: 404, serviceMessage: 'no' })),
      },
    });
    await run('mute', ['Steve', '1h', 'x']);
    const sender = await run('mute', ['Steve', '-r', '2d']);
    expect(plain(sender.messages)).toEqual([
      'This moderation service does not take pardons from the server: lift it in the moderation panel. Nothing was changed.',
    ]);
    expect(created()).toHaveLength(1);
    expect(deps.cache.activeMute(STEVE.uuid, NOW)?.id).toBe('p-1');
  });

  it('announces a ban that ends before a running one with the one that ends last', async () => {
    deps = serviceUp();
    await run('ban', ['Steve', 'x']);
    const shorter = {
      id: 'panel-1',
      targetUuid: STEVE.uuid,
      targetName: 'Steve',
      issuerName: 'Panel',
      typeOrdinal: 2,
      reason: 'y',
      duration: 3_600_000,
      createdAt: new Date(NOW).toISOString(),
      status: 'active',
      started: null,
    };
    deps.applyCreated(shorter);
    expect(plain(deps.staffLines).at(-1)).toBe(
      '[Bailiff] Panel banned Steve for 1h: y (but p-1 runs longer: permanent)',
    );
    expect(deps.cache.activeBan(STEVE.uuid, NOW)?.id).toBe('p-1');
  });
});

describe('punishing a player who never joined this server', () => {
  const registered = async () => ({ success: true });

  it('offline mode: the offline UUID of the name, told to staff, registered at the service before the creation', async () => {
    deps = serviceUp({ server: { edition: 'java', onlineMode: false }, api: { registerPlayer: registered } });
    const uuid = offlineUuid('Griefer');
    const sender = await run('ban', ['Griefer', 'x']);
    expect(plain(sender.messages)).toEqual([
      `Griefer has not joined this server: UUID ${uuid} (the offline-mode UUID of that name).`,
      'Banned Griefer permanently. Punishment ID: p-1',
    ]);
    expect(deps.client.calls.map((call) => [call.method, call.args[0]])).toEqual([
      ['registerPlayer', { uuid, name: 'Griefer' }],
      [
        'createPunishmentDynamic',
        { targetUuid: uuid, typeOrdinal: 2, issuerName: 'Mod', issuerWeight: 100, duration: -1, reason: 'x' },
      ],
    ]);
    expect(deps.cache.activeBan(uuid, NOW)?.punishment.targetName).toBe('Griefer');
  });

  it('by UUID on any server; with the service unreachable the registration is queued ahead of the creation', async () => {
    const uuid = 'fc55e503-0b2c-4b1e-8e6e-2d1c0b0a0908';
    deps = testDeps({
      api: {
        registerPlayer: unreachable('registerPlayer'),
        createPunishmentDynamic: unreachable('createPunishmentDynamic'),
      },
    });
    await run('mute', [uuid.replace(/-/g, ''), '1d', 'spam']);
    expect(deps.outboxRows().map((row) => [row.operation, row.orderingKey, row.payload])).toEqual([
      ['registerPlayer', `player:${uuid}`, { uuid, name: 'fc55e5030b2c4b1e' }],
      [
        'createPunishmentDynamic',
        `player:${uuid}`,
        {
          targetUuid: uuid,
          typeOrdinal: 1,
          issuerName: 'Mod',
          issuerWeight: 100,
          duration: 86_400_000,
          reason: 'spam',
        },
      ],
    ]);
    expect(deps.cache.activeMute(uuid, NOW)?.punishment.targetName).toBe(uuid);
  });

  it('online mode: the profile lookup names the account; an unknown name creates nothing', async () => {
    const notch = { uuid: '069a79f4-44e9-4726-a5be-fca90e38aaf6', name: 'Notch' };
    deps = serviceUp({
      api: { registerPlayer: registered },
      fromProfiles: async (name) => (name.toLowerCase() === 'notch' ? notch : undefined),
    });
    const sender = await run('ban', ['notch', 'x']);
    expect(plain(sender.messages)[0]).toBe(
      `Notch has not joined this server: UUID ${notch.uuid} (from the profile lookup).`,
    );
    expect(created()).toEqual([
      { targetUuid: notch.uuid, typeOrdinal: 2, issuerName: 'Mod', issuerWeight: 100, duration: -1, reason: 'x' },
    ]);
    const ghost = await run('ban', ['Ghost', 'x']);
    expect(plain(ghost.messages)).toEqual(['No Minecraft account is named Ghost.']);
    expect(created()).toHaveLength(1);
  });
});
