import { Button, type ButtonProps, Tooltip } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';

/**
 * Export to CSV (admin §2, portals §2, the reports): a download the server streams; disabled, with a
 * tooltip saying why, while there is nothing to export. A disabled one is a real disabled button (not
 * a link), so nothing follows it and accessibility checkers treat it as inactive.
 */
export function ExportButton({
  href,
  disabled,
  emptyText,
  size,
}: {
  href: string;
  disabled: boolean;
  emptyText: string;
  size?: ButtonProps['size'];
}) {
  const icon = <IconDownload size={size === 'xs' ? 14 : 18} />;
  if (disabled) {
    return (
      <Tooltip label={emptyText}>
        {/* A disabled button takes no pointer events: the span shows the tooltip. */}
        <span>
          <Button leftSection={icon} size={size} disabled>
            Export to CSV
          </Button>
        </span>
      </Tooltip>
    );
  }
  return (
    <Button component="a" href={href} download size={size} leftSection={icon}>
      Export to CSV
    </Button>
  );
}
