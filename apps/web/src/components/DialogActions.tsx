import { Button, type ButtonProps, Group } from '@mantine/core';

/** The foot of a dialog's form: Cancel, then the submit button (disabled and loading while it saves). */
export function DialogActions({
  onCancel,
  submitting,
  submitLabel,
  submitColor,
}: {
  onCancel: () => void;
  submitting: boolean;
  submitLabel: string;
  submitColor?: ButtonProps['color'];
}) {
  return (
    <Group justify="flex-end" mt="xs">
      <Button variant="default" onClick={onCancel} disabled={submitting}>
        Cancel
      </Button>
      <Button type="submit" color={submitColor} loading={submitting}>
        {submitLabel}
      </Button>
    </Group>
  );
}
