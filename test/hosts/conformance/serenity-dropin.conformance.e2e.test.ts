import { bedrockClients } from './clients.js';
import { describeHostConformance } from './host-conformance.js';

// A SerenityJS server started with its own API and the plugins Pipeline, the runtime a guest plugin.
describeHostConformance({
  host: 'serenity',
  edition: 'bedrock',
  clients: bedrockClients,
  xuid: /^\d{16}$/,
  opOnlyCommand: {
    line: 'time query',
    answer: 'The current time of day is',
    refusal: 'You do not have permission to execute this command.',
  },
  dropIn: 'run-serenity-dropin',
  // `serenity.start()` busy-loops at idle: that is the owner's server, not the drop-in.
  checksIdleCpu: false,
});
