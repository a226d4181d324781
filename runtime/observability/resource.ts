/**
 * The OpenTelemetry resource of an app's spans and metrics: the SDK's
 * defaults (`telemetry.sdk.*`) and the app's attributes (`service.name`,
 * `service.instance.id`, `deployment.environment.name`,
 * `OTEL_RESOURCE_ATTRIBUTES`). Loaded only when something is exported.
 */
import { defaultResource, type Resource, resourceFromAttributes } from '@opentelemetry/resources';

/** The resource with `attributes` over the SDK's defaults. */
export function appResource(attributes: Readonly<Record<string, string>>): Resource {
  return defaultResource().merge(resourceFromAttributes(attributes));
}
