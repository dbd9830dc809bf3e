import type { TagKind } from '@leadex/domain';
import { TagsInput, type TagsInputProps } from '@mantine/core';
import { useTags } from '../features/reference/reference.api';

/** Admin spec §5: tag selects show 10 options at a time; tag inputs hold at most 200 pills. */
export const TAG_OPTION_LIMIT = 10;
export const MAX_TAGS = 200;

export interface TagsFieldProps extends Omit<TagsInputProps, 'data'> {
  /** Whose tags to suggest: GET /api/tag/{kind} answers the tags in use, as a bare array. */
  kind: TagKind;
}

/** Free tags with the tags already in use offered as suggestions. */
export function TagsField({ kind, readOnly, ...props }: TagsFieldProps) {
  // Only an editable field needs suggestions.
  const suggestions = useTags(kind, { enabled: !readOnly });
  return (
    <TagsInput
      data={suggestions.data ?? []}
      limit={TAG_OPTION_LIMIT}
      maxTags={MAX_TAGS}
      clearable={!readOnly}
      readOnly={readOnly}
      splitChars={[',']}
      {...props}
    />
  );
}
