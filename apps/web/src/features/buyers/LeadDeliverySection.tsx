import { Anchor, Group, Input, SimpleGrid, Slider, Stack, TagsInput, type TagsInputProps, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Controller, useFormContext } from 'react-hook-form';
import { Link } from 'react-router';
import { useEditing } from '../../components/EditableForm';
import { TextField } from '../../components/FormFields';
import { Section } from '../../components/Section';

/** A free list (emails, phone numbers, URLs) bound to the form: one pill per entry. */
function ListField({ name, ...props }: { name: string } & Omit<TagsInputProps, 'name'>) {
  const { control } = useFormContext();
  const editing = useEditing();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <TagsInput
          {...props}
          readOnly={!editing}
          variant={editing ? 'default' : 'filled'}
          clearable={editing}
          // Pasted lists split on commas and semicolons (phone numbers may hold spaces).
          splitChars={[',', ';']}
          acceptValueOnBlur
          ref={field.ref}
          name={field.name}
          value={field.value ?? []}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={fieldState.error?.message}
          placeholder={editing ? props.placeholder : (field.value ?? []).length === 0 ? 'None' : undefined}
        />
      )}
    />
  );
}

/** Auto Approve Returns: a 0 to 100% slider in steps of 1%, held in the form as a share from 0 to 1. */
function AutoApproveReturnsField() {
  const { control } = useFormContext();
  const editing = useEditing();
  return (
    <Controller
      name="autoApproveReturns"
      control={control}
      render={({ field, fieldState }) => {
        const percent = Math.round((Number(field.value) || 0) * 100);
        return (
          <Input.Wrapper
            label="Auto Approve Returns"
            description="Share of a bill's leads whose returns are approved without review."
            error={fieldState.error?.message}
          >
            <Group gap="md" mt="xs" wrap="nowrap">
              <Slider
                flex={1}
                min={0}
                max={100}
                step={1}
                value={percent}
                disabled={!editing}
                label={(value) => `${value}%`}
                marks={[
                  { value: 0, label: '0%' },
                  { value: 50, label: '50%' },
                  { value: 100, label: '100%' },
                ]}
                onChange={(value) => field.onChange(value / 100)}
                onBlur={field.onBlur}
                thumbLabel="Auto Approve Returns"
                mb="md"
              />
              <Text fw={600} w={48} ta="right" data-testid="auto-approve-returns">
                {percent}%
              </Text>
            </Group>
          </Input.Wrapper>
        );
      }}
    />
  );
}

/** Lead Delivery (admin §2): where the buyer's leads go by default, and how returns are approved. */
export function LeadDeliverySection({ customDeliveries = true }: { customDeliveries?: boolean }) {
  const editing = useEditing();
  return (
    <Section
      title="Lead Delivery"
      description="The default delivery of the buyer's new campaigns."
      actions={
        customDeliveries ? (
          <Anchor component={Link} to="/deliveries" fz="sm" fw={500}>
            <Group gap={4}>
              <IconPlus size={16} />
              Add Custom Delivery
            </Group>
          </Anchor>
        ) : undefined
      }
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <ListField
            name="notify.email"
            label="Email List"
            placeholder="leads@buyer.com, press Enter"
            aria-label="Email List"
          />
          <ListField
            name="notify.sms"
            label="SMS List"
            placeholder="(555) 010-2000, press Enter"
            aria-label="SMS List"
          />
          <TextField name="notify.webhook" label="Webhook" placeholder={editing ? 'https://' : 'None'} type="url" />
          <ListField
            name="notify.broadcast_webhooks"
            label="Broadcast Webhooks"
            placeholder="https://, press Enter"
            aria-label="Broadcast Webhooks"
          />
        </SimpleGrid>
        <AutoApproveReturnsField />
      </Stack>
    </Section>
  );
}
