import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ADDRESS_ONLY_TARGET, ADDRESS_ONLY_TARGET_NAME } from '../../contract/evasion-data.js';
import {
  acknowledgePunishmentBody,
  addEvidenceBody,
  createPunishmentBody,
  type DynamicCreateBody,
  dynamicCreateBody,
} from '../../contract/schemas.js';
import { auditApiAction } from '../api-audit.js';
import type { ServiceContext, ServiceStores } from '../context.js';
import { refuseTooBroadIpBan } from '../evasion/ip-ban-breadth.js';
import { callerOf } from '../http/auth.js';
import { notFound } from '../http/errors.js';
import { idempotentCreations } from '../http/idempotency.js';
import { parseOrThrow } from '../http/validate.js';
import { issueWithin } from '../ladders/escalation.js';
import { boundedData, storedId } from '../limits.js';
import { publishChanges } from '../punishment-actions.js';
import { computePreview } from '../rules/preview.js';
import { refuseBeyondLimits } from '../staff/check-issue.js';
import { limitsFromGrants } from '../staff/grant-limits.js';
import { refuseImmuneTarget, weightFromGrant } from '../staff/immunity.js';
import type { EndpointHandlers } from './endpoint-handlers.js';

// The contract only sets a minimum for create's snake_case ordinal.
const serviceCreateBody = createPunishmentBody.extend({
  type_ordinal: z.number().int('must be an integer').min(0, 'must be at least 0'),
  data: boundedData.optional(),
});
const serviceDynamicBody = dynamicCreateBody.extend({ data: boundedData.optional() });
const idParams = z.object({ punishmentId: storedId });

type CreateRequest = Omit<DynamicCreateBody, 'issuerName'> & { issuerName?: string };

/** An IP ban may name no account: it then targets the nil UUID (extension, see evasion-data.ts). */
function addressOnlyName(body: CreateRequest): string | undefined {
  const isAddressOnly = body.targetUuid.toLowerCase() === ADDRESS_ONLY_TARGET && body.data?.ipAddress !== undefined;
  return isAddressOnly ? ADDRESS_ONLY_TARGET_NAME : undefined;
}

/** Create, dynamic create, evidence and acknowledgement: endpoints 4-7. Creations and evidence honour `Idempotency-Key`. */
export function punishmentWriteHandlers(
  context: ServiceContext,
): Pick<EndpointHandlers, 'createPunishment' | 'createPunishmentDynamic' | 'addEvidence' | 'acknowledgePunishment'> {
  const { stores, clock, ids, rules } = context;
  const createOnce = idempotentCreations(context);

  // Inside the creation's transaction; the caller publishes once it committed.
  async function create(stores: ServiceStores, networkId: number, body: CreateRequest): Promise<string[]> {
    refuseTooBroadIpBan(body.data, context.evasion.ipBanPrefixLimits);
    const targetName = (await stores.players.findName(networkId, body.targetUuid)) ?? addressOnlyName(body);
    if (targetName === undefined) throw notFound(`target player ${body.targetUuid} not found`);
    const nowMs = clock.now();
    // Without a duration the type's table decides, at the player's current offence level.
    const duration =
      body.duration ??
      computePreview(await stores.punishments.historyOf(networkId, body.targetUuid), body.typeOrdinal, rules, nowMs)[
        body.severity ?? 'regular'
      ].duration;
    const status = body.status ?? 'active';
    await refuseImmuneTarget(
      stores,
      networkId,
      { uuid: body.targetUuid, name: targetName },
      weightFromGrant(body.issuerWeight),
    );
    if (body.issuerGrants !== undefined) {
      await refuseBeyondLimits(stores, rules, {
        networkId,
        issuerName: body.issuerName ?? 'Console',
        limits: limitsFromGrants(body.issuerGrants),
        typeOrdinal: body.typeOrdinal,
        status,
        durationMs: duration,
        nowMs,
      });
    }
    const id = ids();
    return issueWithin(
      context,
      stores,
      {
        networkId,
        id,
        targetUuid: body.targetUuid,
        targetName,
        issuerName: body.issuerName ?? 'Console',
        ...(body.issuerId === undefined ? {} : { issuerId: body.issuerId }),
        typeOrdinal: body.typeOrdinal,
        reason: body.reason ?? '',
        duration,
        ...(body.severity === undefined ? {} : { severity: body.severity }),
        status,
        ...(body.data === undefined ? {} : { data: body.data }),
        ...(body.notes === undefined ? {} : { notes: body.notes }),
        ...(body.attachedTicketIds === undefined ? {} : { attachedTicketIds: body.attachedTicketIds }),
        createdAt: nowMs,
      },
      'api',
    );
  }

  /** Creates once per `Idempotency-Key`; publishes only a punishment this request created. */
  async function createAndPublish(request: FastifyRequest, reply: FastifyReply, body: CreateRequest) {
    const { networkId, serverName } = callerOf(request);
    let created: string | undefined;
    let issued: string[] = [];
    const punishmentId = await createOnce(request, reply, networkId, async (stores) => {
      issued = await create(stores, networkId, body);
      created = issued[0];
      return created!;
    });
    if (created !== undefined) {
      await publishChanges(context, networkId, issued);
      await auditApiAction(context, {
        networkId,
        via: 'api',
        actor: body.issuerName ?? 'Console',
        action: 'punishment.create',
        subject: created,
        server: serverName,
        detail: { typeOrdinal: body.typeOrdinal, target: body.targetUuid, reason: body.reason ?? '' },
      });
    }
    return punishmentId;
  }

  return {
    createPunishment: {
      async handle(request, reply) {
        const { type_ordinal, ...rest } = parseOrThrow(serviceCreateBody, request.body);
        await createAndPublish(request, reply, { ...rest, typeOrdinal: type_ordinal });
        return reply.code(200).send();
      },
    },
    createPunishmentDynamic: {
      async handle(request, reply) {
        const body = parseOrThrow(serviceDynamicBody, request.body);
        const punishmentId = await createAndPublish(request, reply, body);
        return { punishmentId, message: `punishment ${punishmentId} created` };
      },
    },
    addEvidence: {
      async handle(request, reply) {
        const caller = callerOf(request);
        const { punishmentId } = parseOrThrow(idParams, request.params, 'path');
        const body = parseOrThrow(addEvidenceBody, request.body);
        let isAdded = false;
        await createOnce(
          request,
          reply,
          caller.networkId,
          async (stores) => {
            if (!(await stores.punishments.find(caller.networkId, punishmentId)))
              throw notFound(`punishment ${punishmentId} not found`);
            await stores.enforcement.addEvidence(
              caller.networkId,
              punishmentId,
              body.issuerName,
              body.evidenceUrl,
              clock.now(),
            );
            isAdded = true;
            return punishmentId;
          },
          { scope: `evidence:${punishmentId}` },
        );
        if (isAdded) {
          await auditApiAction(context, {
            networkId: caller.networkId,
            via: 'api',
            actor: body.issuerName,
            action: 'punishment.evidence',
            subject: punishmentId,
            server: caller.serverName,
            detail: { evidenceUrl: body.evidenceUrl },
          });
        }
        return { success: true, message: 'evidence added' };
      },
    },
    acknowledgePunishment: {
      async handle(request) {
        const caller = callerOf(request);
        const body = parseOrThrow(acknowledgePunishmentBody, request.body);
        if (!(await stores.punishments.find(caller.networkId, body.punishmentId))) {
          throw notFound(`punishment ${body.punishmentId} not found`);
        }
        const nowMs = clock.now();
        const executedAt = body.executedAt === undefined ? nowMs : Date.parse(body.executedAt);
        await stores.enforcement.recordAcknowledgement({
          networkId: caller.networkId,
          punishmentId: body.punishmentId,
          serverId: caller.serverId,
          playerUuid: body.playerUuid,
          executedAt,
          success: body.success,
          ...(body.errorMessage === undefined ? {} : { errorMessage: body.errorMessage }),
          receivedAt: nowMs,
        });
        context.activity.acknowledged(caller, nowMs);
        if (!body.success) return { message: 'failed enforcement recorded' };
        const started = await stores.punishments.markStarted(caller.networkId, body.punishmentId, executedAt, nowMs);
        return { message: started ? 'punishment acknowledged' : 'punishment already acknowledged' };
      },
    },
  };
}
