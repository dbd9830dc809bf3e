import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** The component type of a module's export (never for an export that is not a component). */
type ComponentOf<T> = T extends ComponentType<infer P> ? ComponentType<P> : never;

/**
 * A screen whose code is fetched the first time its route renders (React.lazy on a named export), so
 * the sign-in page does not download the back office and one role never downloads another's screens.
 * The route tree shows a PageLoader (Suspense) meanwhile.
 */
export function lazyPage<M, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<ComponentOf<M[K]>> {
  return lazy(async () => ({ default: (await load())[name] as ComponentOf<M[K]> }));
}
