import { bedrockClients } from './clients.js';
import { describeHostConformance } from './host-conformance.js';

describeHostConformance({ host: 'serenity', edition: 'bedrock', clients: bedrockClients });
