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

/**
 * What a save says: '{name} updated successfully' (admin §8) for a change, and for a new record
 * '{name} created successfully', since nothing was there to update.
 */
export function savedMessage(name: string, created: boolean): string {
  return `${name} ${created ? 'created' : 'updated'} successfully`;
}

/** The green toast after a create (`created`) or an update of the record called `name`. */
export function showSaved(name: string, created: boolean): void {
  showSuccess(savedMessage(name, created));
}
