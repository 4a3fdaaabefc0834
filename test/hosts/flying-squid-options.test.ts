import { describe, expect, it } from 'vitest';
import { flyingSquidOptions } from '../../src/hosts/flying-squid/flying-squid-options.js';
import { LOOPBACK_TEST_SETTINGS, type ServerSettings } from '../../src/hosts/server-settings.js';

describe('flying-squid options', () => {
  it('gives a player 30 s to answer keep-alives before the server drops them, as the vanilla server does', () => {
    const settings: ServerSettings = {
      ...LOOPBACK_TEST_SETTINGS,
      edition: 'java',
      version: '1.21.4',
      motd: 'test',
      maxPlayers: 20,
      ops: [],
      preLoginTimeoutMs: 5000,
    };
    const options = flyingSquidOptions(settings, '/srv/minecraft');
    // flying-squid's own 10 s was used up by the server's busy loop alone on a loaded machine.
    expect(options.kickTimeout).toBe(30_000);
  });
});
