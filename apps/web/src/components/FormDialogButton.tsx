import { Button, type ButtonProps, Modal, Stack, Text } from '@mantine/core';
import type { TablerIcon } from '@tabler/icons-react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { DialogActions } from './DialogActions';

/**
 * A button that opens a dialog asking a question over a small form (a reason, an amount): Cancel closes it,
 * the submit button (labelled and coloured as the button) runs onSubmit, which closes the dialog when it is done.
 */
export function FormDialogButton({
  label,
  color,
  variant,
  icon: Icon,
  title,
  question,
  submitting,
  onSubmit,
  children,
}: {
  label: string;
  color: ButtonProps['color'];
  variant?: ButtonProps['variant'];
  icon: TablerIcon;
  title: string;
  question: ReactNode;
  submitting: boolean;
  /** Runs on submit; calls close once it has done its work (a failure it shows leaves the dialog open). */
  onSubmit: (close: () => void) => Promise<void>;
  children: ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  const close = () => setAsking(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // The modal sits in a portal, but React still bubbles its submit to the page's form.
    event.stopPropagation();
    await onSubmit(close);
  };

  return (
    <>
      <Button variant={variant} color={color} leftSection={<Icon size={18} />} onClick={() => setAsking(true)}>
        {label}
      </Button>
      <Modal opened={asking} onClose={close} title={title} centered>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text size="sm">{question}</Text>
            {children}
            <DialogActions onCancel={close} submitting={submitting} submitLabel={label} submitColor={color} />
          </Stack>
        </form>
      </Modal>
    </>
  );
}
