import type { OutboxEvents } from '../../src/outbox/events.js';
import type { Core } from '../core/core.js';
import type { Feature, FeatureHooks } from '../core/feature.js';
import type { ReportEvents } from '../core/report-events.js';
import { ReportAlerts } from '../reports/report-alerts.js';

/** How often the alert checks whether a poll of open reports is due (the interval itself is in config.yml). */
const TICK_MS = 1000;

/**
 * The staff alert of new reports: `reportCreated` of this server, a poll at the next tick after
 * this server delivered a ticket, and polls at the interval for the rest of the network.
 */
export function installReportAlerts(core: Core, hooks: FeatureHooks): Feature {
  const { clock, logger } = core.enforcement;
  const alerts = new ReportAlerts({
    client: core.client,
    online: () => core.audience.online(),
    console: core.audience.console,
    messages: core.settings.messages,
    pollIntervalMs: () => core.settings.config().ticketUpdates.pollIntervalMs,
    clock,
    logger,
  });
  const onReport: ReportEvents['reportCreated'] = (report) => alerts.alert(report);
  // A ticket this server delivered (a report from /report or /chatreport, at once or from the
  // outbox) is looked for at the next tick, so it is alerted without waiting for the interval.
  const onSent: OutboxEvents['outbox:sent'] = ({ operation }) => {
    if (operation === 'createTicket') alerts.pollSoon();
  };
  return {
    name: 'report-alerts',
    start() {
      core.reports.on('reportCreated', onReport);
      core.outbox.events.on('outbox:sent', onSent);
      hooks.scheduler.repeat(() => alerts.tick(), TICK_MS, 0);
    },
    stop() {
      core.reports.off('reportCreated', onReport);
      core.outbox.events.off('outbox:sent', onSent);
      hooks.release();
    },
  };
}
