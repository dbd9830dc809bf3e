import { ActionIcon, Button, type MantineSize, type MantineSpacing, Tooltip } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * The buttons of a form's editable rows (a source's channels, a campaign's source restrictions, a
 * delivery's headers and mappings): the same look everywhere a list of rows grows and shrinks.
 */

/** Adds a row, under the rows (its own line, so it does not stretch). */
export function AddRowButton({
  onClick,
  size,
  children,
}: {
  onClick: () => void;
  size?: MantineSize;
  children: ReactNode;
}) {
  return (
    <div>
      <Button variant="light" size={size} leftSection={<IconPlus size={16} />} onClick={onClick}>
        {children}
      </Button>
    </div>
  );
}

/** Removes a row; `label` names the row for screen readers ('Remove channel 2'). */
export function RemoveRowButton({
  label,
  tooltip,
  onClick,
  mt,
}: {
  label: string;
  tooltip: string;
  onClick: () => void;
  /** Lines the icon up with the inputs when their labels sit above them. */
  mt?: MantineSpacing;
}) {
  return (
    <Tooltip label={tooltip}>
      <ActionIcon variant="subtle" color="red" size="lg" mt={mt} onClick={onClick} aria-label={label}>
        <IconTrash size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
