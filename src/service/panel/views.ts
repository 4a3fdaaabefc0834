import { Eta } from 'eta';
import { VIEWS_DIR } from './files.js';

/**
 * The panel's templates. Every `<%= %>` is HTML-escaped (autoEscape), so names, reasons and ticket
 * texts are shown as text; `<%~ %>` (unescaped) is only for a layout's rendered body.
 */
export function createViews(viewsDir = VIEWS_DIR): Eta {
  return new Eta({ views: viewsDir, autoEscape: true, cache: true, defaultExtension: '.eta' });
}
