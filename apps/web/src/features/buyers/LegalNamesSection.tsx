import type { Buyer } from '@leadex/domain';
import { Button, Group, Stack, TagsInput, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Section } from '../../components/Section';
import { api } from '../../lib/api';
import { showSuccess } from '../../lib/notify';
import { queryKeys } from '../../lib/queryKeys';

/**
 * Issue 34 item 4: the company's legal names, as a consumer's consent must name it for a campaign that
 * requires named consent (and for a Medicare service). The admin's buyer screen and the buyer's own
 * profile both show it; PUT /api/buyer/{id}/legal-names saves it.
 */
export function LegalNamesSection({ buyer, selfView }: { buyer: Buyer; selfView: boolean }) {
  const [names, setNames] = useState<string[]>(buyer.legal_names);
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (legal_names: string[]) =>
      api.put<Buyer>(`/api/buyer/${encodeURIComponent(buyer._id)}/legal-names`, { legal_names }),
    onSuccess: (saved) => {
      setNames(saved.legal_names);
      showSuccess('Legal names saved');
      return queryClient.invalidateQueries({ queryKey: queryKeys.buyers.detail(buyer._id) });
    },
  });
  const changed = names.join('\n') !== buyer.legal_names.join('\n');
  return (
    <Section
      title="Legal Names"
      description={
        selfView
          ? 'Your company’s legal names. Campaigns that require named consent buy only leads whose consent language names one of them. The profile is read-only: ask your provider to change them, or send them through the API (PUT /api/buyer/{id}/legal-names).'
          : 'The company’s legal names. Campaigns that require named consent buy only leads whose consent language names one of them.'
      }
    >
      <Stack gap="xs">
        <TagsInput
          label="Legal names"
          placeholder="Type a name and press Enter"
          value={names}
          onChange={setNames}
          readOnly={selfView}
          maxTags={20}
          splitChars={[]}
        />
        <Text fz="xs" c="dimmed">
          Matched without regard to case, punctuation or “Inc.”, “LLC”, “Co.”: “Acme Home Services, LLC” matches “ACME
          Home Services Inc.”.
        </Text>
        {/* The buyer's profile is read-only (portals spec): only the admin saves here. */}
        {!selfView && (
          <Group>
            <Button
              type="button"
              size="xs"
              disabled={!changed}
              loading={save.isPending}
              onClick={() => save.mutate(names)}
            >
              Update Legal Names
            </Button>
          </Group>
        )}
      </Stack>
    </Section>
  );
}
