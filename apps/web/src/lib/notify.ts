import { notifications } from '@mantine/notifications';

/** Spec §8: every failure is a red toast at the top centre, titled 'Error'. */
export function showError(message: string): void {
  // One toast per message: when the network drops, every query on the screen fails at once.
  notifications.show({
    id: `error:${message}`,
    color: 'red',
    title: 'Error',
    message,
    position: 'top-center',
    autoClose: 6000,
  });
}

export function showSuccess(message: string, title = 'Success'): void {
  notifications.show({ color: 'green', title, message, position: 'top-center' });
}
