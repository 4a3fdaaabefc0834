import { bedrockClients } from './clients.js';
import { describeHostConformance } from './host-conformance.js';

describeHostConformance({
  host: 'serenity',
  edition: 'bedrock',
  clients: bedrockClients,
  // Offline mode: SerenityJS derives a 16-digit XUID from the name.
  xuid: /^\d{16}$/,
  opOnlyCommand: {
    line: 'time query',
    answer: 'The current time of day is',
    refusal: 'You do not have permission to execute this command.',
  },
});
