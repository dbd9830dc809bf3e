import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/harness';
import { type DocumentedRoute, documentedRoutes, type JsonSchema } from '../../../test/openapi';

/**
 * Every route of the OpenAPI document declares its answers (issue 31): its success answer (2xx, or the
 * redirect of the integrations' browser routes) as a schema from packages/domain, and every failure in
 * the one error shape. The serializer checks each answer against them, so the document is what the API
 * answers.
 */

/** The browser routes of the integrations: they answer a redirect, never a body. */
const REDIRECTS = /^GET \/api\/(facebook|google)\/[a-z-]+-auth(\/callback)?$/;

const t = useTestApp();
const routes = (): DocumentedRoute[] => documentedRoutes(t.app);
const name = (route: DocumentedRoute) => `${route.method} ${route.path}`;
const schemasOf = (route: DocumentedRoute, status: (code: string) => boolean): JsonSchema[] =>
  Object.entries(route.operation.responses ?? {})
    .filter(([code]) => status(code))
    .flatMap(([, answer]) => Object.values(answer.content ?? {}).map((content) => content.schema ?? {}));

describe('the OpenAPI document', () => {
  it('lists the whole API', () => {
    expect(routes().length).toBeGreaterThan(90);
  });

  it('declares a success answer with a schema on every route', () => {
    const missing = routes()
      .filter((route) => {
        const success = REDIRECTS.test(name(route)) ? /^3\d\d$/ : /^2(\d\d|XX)$/i;
        const schemas = schemasOf(route, (code) => success.test(code));
        return schemas.length === 0 || schemas.some((schema) => Object.keys(schema).length === 0);
      })
      .map(name);
    expect(missing).toEqual([]);
  });

  it('declares every failure in the one error shape (ok: false, message)', () => {
    const missing = routes()
      .filter((route) =>
        ['4', '5'].some((first) => {
          const schemas = schemasOf(route, (code) => code.startsWith(first));
          return schemas.length === 0 || schemas.some((schema) => !schema.properties?.ok || !schema.properties.message);
        }),
      )
      .map(name);
    expect(missing).toEqual([]);
  });
});
