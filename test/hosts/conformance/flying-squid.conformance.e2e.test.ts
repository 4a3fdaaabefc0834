import { mineflayerClients } from './clients.js';
import { describeHostConformance } from './host-conformance.js';

describeHostConformance({ host: 'flying-squid', edition: 'java', clients: mineflayerClients });
