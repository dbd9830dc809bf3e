import { Center, Loader } from '@mantine/core';

/**
 * What a person sees while a screen, its code or its record loads: Mantine's Loader, centred, so the
 * wait shows progress rather than a blank page. `fullScreen`: before any frame is drawn (the session
 * being read, an area's frame or a sign-in page loading).
 */
export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <Center {...(fullScreen ? { h: '100vh' } : { py: 80 })}>
      <Loader />
    </Center>
  );
}
