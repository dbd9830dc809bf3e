import { Anchor, Group, Input, Slider, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Controller, useFormContext } from 'react-hook-form';
import { Link } from 'react-router';
import { useEditing } from '../../components/EditableForm';
import { SwitchField } from '../../components/FormFields';
import { LeadDeliveryFields } from '../../components/LeadDeliveryFields';
import { Section } from '../../components/Section';

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

/**
 * Show Lead Sources (issue 27): whether the buyer sees which source each of its leads came from. Off by
 * default, as exchanges keep their suppliers from their buyers; an admin setting, never the buyer's own.
 */
function ShowSourceField() {
  return (
    <SwitchField
      name="showSource"
      label="Show Lead Sources"
      description="The buyer sees which source each of its leads came from, on its bills and leads. Off keeps the exchange's suppliers hidden from it."
    />
  );
}

/** Lead Delivery (admin §2): where the buyer's leads go by default, and how returns are approved. */
export function LeadDeliverySection({
  customDeliveries = true,
  sourceSetting = true,
}: {
  customDeliveries?: boolean;
  /** Whether the admin's Show Lead Sources switch is shown (not on the buyer's own profile). */
  sourceSetting?: boolean;
}) {
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
        <LeadDeliveryFields form="buyer" />
        <AutoApproveReturnsField />
        {sourceSetting && <ShowSourceField />}
      </Stack>
    </Section>
  );
}
