import { mineflayerClients } from './clients.js';
import { describeHostConformance } from './host-conformance.js';

describeHostConformance({
  host: 'flying-squid',
  edition: 'java',
  clients: mineflayerClients,
  xuid: /^undefined$/,
  opOnlyCommand: {
    line: 'banlist',
    answer: 'There are 0 total banned players',
    refusal: 'You do not have permission to use this command',
  },
});
