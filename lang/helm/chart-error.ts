/**
 * ChartError: a chart that cannot be loaded or rendered (HELM_* codes). Its
 * own file so chart.ts and helmignore.ts, which both raise it, do not import
 * each other.
 */
import { KubecfgError } from '../common/errors.js';

export class ChartError extends KubecfgError {
  override name = 'ChartError';
  constructor(
    message: string,
    readonly code = 'HELM_CHART',
  ) {
    super(message);
  }
}
