import { afterAll, describe, expect, it } from 'vitest';
import { insertBans } from './helpers/bulk-bans.js';
import { JEB, KEY_A1, KEY_A2, NOTCH } from './helpers/fixture.js';
import { ban, caughtUp, hello, logged, pushedIds, snapshotIds, streamServices } from './helpers/stream-services.js';
import { openStreamSession } from './helpers/stream-session.js';

const services = streamServices('bailiff-stream-resume-');
afterAll(() => services.close());
const serviceWith = services.start;

describe('stream protocol 2: sequences and resume', () => {
  it('a client with no position gets a snapshot at a sequence; resuming from it gets only the changes missed', async () => {
    const { t } = await serviceWith();
    const before = await ban(t, NOTCH);
    const first = openStreamSession(t.service.url, KEY_A1, '?protocol=2');
    const frames = await caughtUp(first);
    const greeting = hello(frames);
    expect(greeting).toMatchObject({ protocol: 2, resumed: false });
    expect(snapshotIds(frames)).toEqual([before]);
    const caught = frames.at(-1)!;
    expect(caught).toEqual({ type: 'caught-up', sequence: greeting.sequence });
    first.ws.close();

    const missedOne = await ban(t, JEB);
    const missedTwo = await ban(t, NOTCH);
    const resumed = openStreamSession(
      t.service.url,
      KEY_A1,
      `?protocol=2&epoch=${greeting.epoch}&after=${greeting.sequence}`,
    );
    const resumedFrames = await caughtUp(resumed);
    expect(hello(resumedFrames)).toMatchObject({ resumed: true, epoch: greeting.epoch });
    expect(snapshotIds(resumedFrames)).toEqual([]);
    expect(pushedIds(resumedFrames)).toEqual([missedOne, missedTwo]);
    const sequences = resumedFrames.flatMap((frame) => (frame.type === 'punishment' ? [frame.sequence] : []));
    expect(sequences).toEqual([greeting.sequence! + 1, greeting.sequence! + 2]);
    expect(resumedFrames.at(-1)).toEqual({ type: 'caught-up', sequence: greeting.sequence! + 2 });

    // Live frames carry their sequence too.
    await t.admin('POST', `/networks/alpha/punishments/${missedOne}/status`, { status: 'pardoned' });
    expect(await resumed.next()).toMatchObject({
      type: 'punishment',
      sequence: greeting.sequence! + 3,
      punishment: { id: missedOne, status: 'pardoned' },
    });
    resumed.ws.close();
  });

  it('a live connection also gets changes nobody published (an import), before the next one', async () => {
    const { t, dbPath } = await serviceWith();
    const session = openStreamSession(t.service.url, KEY_A1, '?protocol=2');
    const greeting = hello(await caughtUp(session));
    insertBans(dbPath, 'alpha', 1);
    const published = await ban(t, NOTCH);
    const frames = await session.untilCaughtUp();
    expect(pushedIds(frames)).toEqual(['bulk-0', published]);
    expect(frames.at(-1)).toEqual({ type: 'caught-up', sequence: greeting.sequence! + 2 });
    session.ws.close();
  });

  it('a position from another log, or ahead of this one, gets a snapshot', async () => {
    const { t } = await serviceWith();
    const id = await ban(t, NOTCH);
    for (const query of ['?protocol=2&epoch=0123abcd&after=1', '?protocol=2&epoch=ffff&after=0']) {
      const session = openStreamSession(t.service.url, KEY_A1, query);
      const frames = await caughtUp(session);
      expect(hello(frames).resumed).toBe(false);
      expect(snapshotIds(frames)).toEqual([id]);
      session.ws.close();
    }
    const greeting = hello(await caughtUp(openStreamSession(t.service.url, KEY_A2, '?protocol=2')));
    const ahead = openStreamSession(t.service.url, KEY_A1, `?protocol=2&epoch=${greeting.epoch}&after=999`);
    expect(hello(await caughtUp(ahead)).resumed).toBe(false);
    ahead.ws.close();
  });

  it('resumes across a service restart, and sends a snapshot once the missed changes were pruned', async () => {
    const { t, dbPath } = await serviceWith();
    const session = openStreamSession(t.service.url, KEY_A1, '?protocol=2');
    const greeting = hello(await caughtUp(session));
    session.ws.close();
    const missed = await ban(t, JEB);
    await t.close();

    const restarted = (await serviceWith({ dbPath, seed: undefined })).t;
    const resumed = openStreamSession(
      restarted.service.url,
      KEY_A1,
      `?protocol=2&epoch=${greeting.epoch}&after=${greeting.sequence}`,
    );
    const frames = await caughtUp(resumed);
    expect(hello(frames)).toMatchObject({ resumed: true, epoch: greeting.epoch });
    expect(pushedIds(frames)).toEqual([missed]);
    resumed.ws.close();
    for (let n = 0; n < 3; n += 1) await ban(restarted, NOTCH);
    await restarted.close();

    // The log keeps 2 changes: the position is now older than what is retained.
    const pruned = (await serviceWith({ dbPath, seed: undefined, streamRetainedChanges: 2 })).t;
    const late = openStreamSession(
      pruned.service.url,
      KEY_A1,
      `?protocol=2&epoch=${greeting.epoch}&after=${greeting.sequence}`,
    );
    const lateFrames = await caughtUp(late);
    expect(hello(lateFrames).resumed).toBe(false);
    expect(snapshotIds(lateFrames)).toContain(missed);
    late.ws.close();
  });

  it('refuses a malformed resume position with 400 naming the parameter', async () => {
    const { t } = await serviceWith();
    const session = openStreamSession(t.service.url, KEY_A1, '?protocol=2&epoch=abc&after=-1');
    await expect(session.opened).rejects.toThrow('refused with 400');
  });
});

describe('shared snapshots with backpressure', () => {
  it('renders one snapshot per network and protocol for many simultaneous connections', async () => {
    const { t, lines, dbPath } = await serviceWith({ streamConnectionsPerKey: 20 });
    insertBans(dbPath, 'alpha', 2500);
    const resuming = Array.from({ length: 6 }, () => openStreamSession(t.service.url, KEY_A1, '?protocol=2'));
    const old = Array.from({ length: 3 }, () => openStreamSession(t.service.url, KEY_A2));
    const resumingFrames = await Promise.all(resuming.map(caughtUp));
    for (const frames of resumingFrames) {
      expect(new Set(snapshotIds(frames)).size).toBe(2500);
      const pages = frames.filter((frame) => frame.type === 'snapshot');
      expect(pages.at(-1)).toMatchObject({ last: true, page: pages.length - 1 });
      expect(pages.slice(0, -1).every((page) => page.type === 'snapshot' && !page.last)).toBe(true);
    }
    for (const session of old) {
      await session.opened;
      expect(await session.next()).toEqual({ type: 'hello', protocol: 1 });
      const snapshot = await session.next();
      expect(snapshot.type === 'snapshot' && snapshot.punishments.length).toBe(2500);
    }
    const rendered = lines.filter((line) => line.message === 'stream snapshot rendered');
    expect(rendered.map((line) => line.fields?.protocol).sort()).toEqual([1, 2]);
    for (const session of [...resuming, ...old]) session.ws.close();
  });

  it('closes a reader that does not read instead of buffering the snapshot for it', async () => {
    const { t, lines, dbPath } = await serviceWith({ streamStallTimeoutMs: 300 });
    // About 18 MB of snapshot: far more than the socket buffers hold.
    insertBans(dbPath, 'alpha', 300, 60_000);
    const session = openStreamSession(t.service.url, KEY_A1, '?protocol=2');
    session.ws.once('open', () => session.ws.pause());
    await session.opened;
    const [closed] = await logged(lines, (line) => line.message === 'stream connection closed by the service');
    expect(closed!.fields).toMatchObject({ code: 1008 });
    expect(String(closed!.fields?.reason)).toContain('too slow');
    // What waited for it was bounded by the high-water mark plus one page, not the 18 MB snapshot.
    expect(closed!.fields?.bufferedBytes).toBeLessThan(2 * 1024 * 1024);
    session.ws.resume();
    const { code } = await session.closed;
    expect([1008, 1006]).toContain(code);
  });
});
