import type { ServiceContext } from '../context.js';

/** Records a staff member's change made on the panel in the network's audit log, at the service's time. */
export function panelAuditRecorder({ stores, clock }: Pick<ServiceContext, 'stores' | 'clock'>) {
  return (networkId: number, actor: string, action: string, subject: string, detail?: Record<string, unknown>) =>
    stores.auditLog.record({
      networkId,
      actor,
      via: 'panel',
      action,
      subject,
      ...(detail ? { detail } : {}),
      atMs: clock.now(),
    });
}
