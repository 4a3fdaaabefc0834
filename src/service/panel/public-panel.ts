import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { AppealThrottle } from './appeals/appeal-throttle.js';
import { createPageRenderer } from './page-views.js';
import { registerAppealRoutes } from './routes/appeals.js';
import { registerPublicListRoutes } from './routes/public-list.js';

export interface PublicPanelOptions {
  /**
   * Appeals one client address may send in an hour (a burst of as many, then refilled evenly).
   * @default 5
   */
  appealsPerHour?: number;
}

export const DEFAULT_APPEALS_PER_HOUR = 5;

/** The panel's pages anyone may open: the public ban list and appeals. */
export function registerPublicPanel(app: FastifyInstance, context: ServiceContext, options: PublicPanelOptions = {}) {
  const render = createPageRenderer();
  const throttle = new AppealThrottle(context.clock, options.appealsPerHour ?? DEFAULT_APPEALS_PER_HOUR);
  registerPublicListRoutes(app, context, render);
  registerAppealRoutes(app, context, render, throttle);
}
