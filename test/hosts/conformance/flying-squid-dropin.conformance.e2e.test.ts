import { mineflayerClients } from './clients.js';
import { describeHostConformance } from './host-conformance.js';

// flying-squid started by its own createMCServer, the runtime a guest named in its `plugins`.
describeHostConformance({
  host: 'flying-squid',
  edition: 'java',
  clients: mineflayerClients,
  xuid: /^undefined$/,
  // Not /banlist: Bailiff, dropped in beside the fixture, takes that one over.
  opOnlyCommand: {
    line: 'time query',
    answer: 'It is ',
    refusal: 'You do not have permission to use this command',
  },
  dropIn: 'run-flying-squid-dropin',
});
