import { afterEach, describe, expect, it } from 'vitest';
import { moderationCommand } from '../../../plugin/commands/moderation.js';
import { applyPunishment } from '../../../plugin/sync/apply-punishment.js';
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
      { targetUuid: STEVE.uuid, typeOrdinal: 2, issuerName: 'Mod', duration: -1, reason: 'griefing spawn' },
    ]);
    expect(plain(sender.messages)).toEqual(['Banned Steve permanently. Punishment ID: p-1']);
    expect(deps.cache.activeBan(STEVE.uuid, NOW)?.id).toBe('p-1');
    expect(plain(deps.staffLines)).toEqual(['[Bailiff] Mod banned Steve permanently: griefing spawn']);
  });

  it('/ban with a duration and /tempban; /tempban without one is a clear error', async () => {
    deps = serviceUp();
    await run('ban', ['Steve', '1d12h', 'x']);
    const sender = await run('tempban', ['Steve', '7d']);
    expect(created().map((body) => (body as { duration: number }).duration)).toEqual([DAY + DAY / 2, 7 * DAY]);
    expect(plain(sender.messages)).toEqual(['Banned Steve for 7d. Punishment ID: p-2']);
    expect(plain(deps.staffLines)[0]).toBe('[Bailiff] Mod banned Steve for 1d 12h: x');
    const bad = await run('tempban', ['Steve', 'griefing']);
    expect(plain(bad.messages)).toEqual([
      'Bad duration griefing: use a number and a unit (s, m, h, d, w, mo, y), like 30m, 7d or 1d12h.',
    ]);
    expect(created()).toHaveLength(2);
  });

  it('/mute and /tempmute issue a Manual Mute the chat guard reads at once', async () => {
    deps = serviceUp();
    await run('mute', ['Steve', 'spam']);
    await run('tempmute', ['Steve', '30m', 'more', 'spam']);
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
      { targetUuid: STEVE.uuid, typeOrdinal: 0, issuerName: 'Mod', duration: 0, reason: 'calm down' },
    ]);
    expect(steve.kickedWith).toContain('calm down');
    expect(plain(deps.staffLines)).toEqual(['[Bailiff] Mod kicked Steve: calm down']);
  });

  it('/warn creates a Kick-type record with the status warning; the online player sees it, nobody is kicked', async () => {
    const steve = fakePlayer(STEVE.uuid, 'Steve');
    deps = serviceUp({ online: [steve] });
    const sender = await run('warn', ['Steve', 'language']);
    expect(created()).toEqual([
      { targetUuid: STEVE.uuid, typeOrdinal: 0, issuerName: 'Mod', duration: 0, reason: 'language', status: 'warning' },
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
        payload: { targetUuid: STEVE.uuid, typeOrdinal: 2, issuerName: 'Mod', duration: 7 * DAY, reason: 'griefing' },
        idempotencyKey: 'punish:id-1',
        orderingKey: `player:${STEVE.uuid}`,
      },
    ]);
    expect(plain(deps.staffLines)).toEqual(['[Bailiff] Mod banned Steve for 7d: griefing']);

    // Delivered later; the service's copy arrives by sync and replaces the local row.
    const enforcement = {
      db: deps.db,
      cache: deps.cache,
      outbox: deps.outbox,
      players: { byUuid: () => undefined },
      messages: () => deps.messages as never,
      appealUrl: () => '',
      clock: deps.clock,
      logger: deps.logger,
    };
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
