import { STREAM_PROTOCOL, STREAM_PROTOCOL_RESUMING } from '../../contract/schemas.js';

/** What a client asked for in the upgrade's query string. */
export interface StreamRequest {
  protocol: typeof STREAM_PROTOCOL | typeof STREAM_PROTOCOL_RESUMING;
  /** The log and sequence the client last applied (protocol 2 only). */
  resumeFrom?: { epoch: string; sequence: number };
}

const EPOCH = /^[0-9a-f]{1,64}$/;

/**
 * Reads `protocol`, `epoch` and `after` from the query; a client that sends none speaks protocol 1.
 * A protocol above the newest is served the newest (the hello says which). Returns a message naming
 * what was wrong for a bad value.
 */
export function parseStreamRequest(query: URLSearchParams): StreamRequest | { error: string } {
  const protocolText = query.get('protocol');
  if (protocolText === null) return { protocol: STREAM_PROTOCOL };
  const asked = Number(protocolText);
  if (!/^\d{1,6}$/.test(protocolText) || asked < STREAM_PROTOCOL) {
    return { error: `protocol: must be an integer >= ${STREAM_PROTOCOL}, received '${protocolText.slice(0, 20)}'` };
  }
  if (asked < STREAM_PROTOCOL_RESUMING) return { protocol: STREAM_PROTOCOL };
  const epoch = query.get('epoch');
  const after = query.get('after');
  if (epoch === null && after === null) return { protocol: STREAM_PROTOCOL_RESUMING };
  if (epoch === null || !EPOCH.test(epoch)) {
    return { error: 'epoch: must be the epoch of a hello frame (hex) when after is given' };
  }
  if (after === null || !/^\d{1,15}$/.test(after)) {
    return {
      error: `after: must be the sequence last applied (an integer >= 0), received '${(after ?? '').slice(0, 20)}'`,
    };
  }
  return { protocol: STREAM_PROTOCOL_RESUMING, resumeFrom: { epoch, sequence: Number(after) } };
}
