import { parseZipTags } from '@leadex/domain';
import { Alert, Stack, TagsInput, type TagsInputProps, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { forwardRef, useState } from 'react';

export interface ZipTagsInputProps
  extends Omit<TagsInputProps, 'value' | 'onChange' | 'data' | 'splitChars' | 'defaultValue'> {
  /** The 5-digit ZIPs. */
  value: string[];
  onChange: (zips: string[]) => void;
}

/**
 * Postal codes as free-text tags (admin §2, Location): typed or pasted text is split on commas,
 * whitespace and newlines; 3 or 4 digits are padded to 5; longer text gives its first 5-digit
 * group. What cannot be read is left out and listed in a red alert 'Invalid values entered:'.
 */
export const ZipTagsInput = forwardRef<HTMLInputElement, ZipTagsInputProps>(function ZipTagsInput(
  { value, onChange, readOnly, ...props },
  ref,
) {
  const [invalid, setInvalid] = useState<string[]>([]);

  const accept = (entries: string[]) => {
    const parsed = parseZipTags(entries);
    setInvalid(parsed.invalid);
    onChange(parsed.zips);
  };

  return (
    <Stack gap="xs">
      <TagsInput
        ref={ref}
        {...props}
        readOnly={readOnly}
        value={value}
        onChange={accept}
        splitChars={[',', ' ', '\n', '\t']}
        clearable={!readOnly}
        acceptValueOnBlur
        // A pasted column of ZIPs arrives as one text: split it here, not into one odd tag.
        onPaste={(event) => {
          if (readOnly) return;
          const text = event.clipboardData.getData('text');
          if (!/[\s,]/.test(text.trim())) return;
          event.preventDefault();
          accept([...value, text]);
        }}
        description={
          props.description ??
          (readOnly ? undefined : 'Type or paste ZIP codes, separated by commas, spaces or new lines.')
        }
      />
      {invalid.length > 0 && !readOnly && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} p="xs" role="alert">
          <Text fz="sm" c="var(--mantine-color-red-light-color)" fw={500}>
            Invalid values entered:
          </Text>
          <Text fz="sm" c="var(--mantine-color-red-light-color)">
            {invalid.join(', ')}
          </Text>
        </Alert>
      )}
    </Stack>
  );
});
