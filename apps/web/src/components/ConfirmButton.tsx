import { Button, type ButtonProps, type MantineColor, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

export interface ConfirmButtonProps extends ButtonProps {
  /** The question, in the spec's words ('Are you sure you want to hide the message?'). */
  confirmText: ReactNode;
  confirmTitle?: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Colour of the confirming button: red for what cannot be undone. */
  confirmColor?: MantineColor;
  /** Runs after the user confirms; nothing happens on Cancel. */
  onConfirm: () => unknown;
  type?: 'button' | 'submit';
}

/** A button that asks before it acts, in a Mantine confirm modal. */
export function ConfirmButton({
  confirmText,
  confirmTitle = 'Please confirm',
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  confirmColor,
  onConfirm,
  type = 'button',
  children,
  ...buttonProps
}: ConfirmButtonProps) {
  const open = () =>
    modals.openConfirmModal({
      title: confirmTitle,
      centered: true,
      children: typeof confirmText === 'string' ? <Text size="sm">{confirmText}</Text> : confirmText,
      labels: { confirm: confirmLabel, cancel: cancelLabel },
      confirmProps: confirmColor ? { color: confirmColor } : undefined,
      onConfirm: () => void onConfirm(),
    });
  return (
    <Button type={type} onClick={open} {...buttonProps}>
      {children}
    </Button>
  );
}
