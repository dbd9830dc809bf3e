import { type Source, type SourceUser, type SourceUserInput, sourceUserSchema } from '@leadex/domain';
import { ActionIcon, Badge, Button, Group, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconLock, IconLockOpen, IconMail, IconPencil, IconUserPlus } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Section } from '../../components/Section';
import { formatDate, formatTimestamp } from '../../lib/format';
import { applyFieldErrors, schemaResolver } from '../../lib/forms';
import { showSuccess } from '../../lib/notify';
import { useCreateApiKey, useSaveSourceUser, useSourceUserAction } from './sources.api';

/** The source's users: name, email, Status (Active, or On hold with date), and the admin's actions. */
export function SourceUsers({ source }: { source: Source }) {
  const users = source.users ?? [];
  // undefined: closed; null: adding; a user: editing.
  const [editing, setEditing] = useState<SourceUser | null | undefined>(undefined);
  const action = useSourceUserAction(source._id);
  const createKey = useCreateApiKey(source._id);

  /** Admin §2: after a welcome email, a source without an API key is offered one. */
  const offerApiKey = () =>
    modals.openConfirmModal({
      title: 'Create an API key?',
      centered: true,
      children: (
        <Text size="sm">
          {source.name} has no API key yet. The new user can sign in, but the source cannot send leads until it has one.
        </Text>
      ),
      labels: { confirm: 'Create API Key', cancel: 'Not now' },
      onConfirm: async () => {
        const key = await createKey.mutateAsync({});
        showSuccess(`API key ${key.name} created`);
      },
    });

  const welcome = async (user: SourceUser) => {
    await action.mutateAsync({ action: 'welcome', userId: user._id });
    showSuccess(`Welcome email successfully sent to ${user.email}.`);
    if (source.apikeys.length === 0) offerApiKey();
  };

  const lock = async (user: SourceUser) => {
    await action.mutateAsync({ action: 'hold', userId: user._id });
    showSuccess(`Successfully locked ${user.email}.`);
  };

  const unlock = async (user: SourceUser) => {
    await action.mutateAsync({ action: 'unhold', userId: user._id });
    showSuccess(`Successfully unlocked ${user.email}.`);
  };

  const busy = (user: SourceUser) => action.isPending && action.variables?.userId === user._id;

  return (
    <Section
      title="Users"
      description="People who sign in to this source’s portal."
      actions={
        <Button variant="light" leftSection={<IconUserPlus size={16} />} onClick={() => setEditing(null)}>
          Add User
        </Button>
      }
    >
      <DataTable<SourceUser>
        records={users}
        idAccessor="_id"
        withTableBorder
        borderRadius="md"
        verticalSpacing="sm"
        fz="sm"
        minHeight={users.length ? undefined : 150}
        noRecordsText="No results"
        columns={[
          { accessor: 'name', title: 'Name' },
          { accessor: 'email', title: 'Email' },
          {
            accessor: 'hold',
            title: 'Status',
            render: (user) =>
              user.hold ? (
                <Tooltip label={`On hold since ${formatTimestamp(user.hold.ts)}`}>
                  <Badge color="red" variant="light">
                    On hold {formatDate(user.hold.ts)}
                  </Badge>
                </Tooltip>
              ) : (
                <Badge color="green" variant="light">
                  Active
                </Badge>
              ),
          },
          {
            accessor: 'actions',
            title: '',
            textAlign: 'right',
            render: (user) => (
              <Group gap={4} justify="flex-end" wrap="nowrap">
                <Tooltip label="Send welcome email">
                  <ActionIcon
                    variant="subtle"
                    aria-label="Send welcome email"
                    onClick={() => welcome(user)}
                    disabled={busy(user)}
                  >
                    <IconMail size={18} />
                  </ActionIcon>
                </Tooltip>
                {user.hold ? (
                  <Tooltip label="Unlock">
                    <ActionIcon
                      variant="subtle"
                      color="green"
                      aria-label="Unlock"
                      onClick={() => unlock(user)}
                      disabled={busy(user)}
                    >
                      <IconLockOpen size={18} />
                    </ActionIcon>
                  </Tooltip>
                ) : (
                  <Tooltip label="Lock">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label="Lock"
                      onClick={() => lock(user)}
                      disabled={busy(user)}
                    >
                      <IconLock size={18} />
                    </ActionIcon>
                  </Tooltip>
                )}
                <Tooltip label="Edit">
                  <ActionIcon variant="subtle" color="gray" aria-label="Edit user" onClick={() => setEditing(user)}>
                    <IconPencil size={18} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            ),
          },
        ]}
      />
      <SourceUserModal sourceId={source._id} user={editing} onClose={() => setEditing(undefined)} />
    </Section>
  );
}

/** The 'Source User Details' modal: Name and Email, both required (admin §5). */
function SourceUserModal({
  sourceId,
  user,
  onClose,
}: {
  sourceId: string;
  /** undefined: closed; null: a new user; else the user edited. */
  user: SourceUser | null | undefined;
  onClose: () => void;
}) {
  const save = useSaveSourceUser(sourceId);
  const form = useForm<SourceUserInput>({
    resolver: schemaResolver(sourceUserSchema),
    defaultValues: { name: '', email: '' },
  });
  const opened = user !== undefined;

  useEffect(() => {
    if (opened) form.reset({ name: user?.name ?? '', email: user?.email ?? '' });
  }, [opened, user, form]);

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await save.mutateAsync({ ...values, userId: user?._id });
      showSuccess(user ? `${saved.name} updated successfully` : 'User added successfully');
      onClose();
    } catch (error) {
      applyFieldErrors(error, form.setError);
    }
  });

  const { errors } = form.formState;
  return (
    <Modal opened={opened} onClose={onClose} title="Source User Details" centered>
      <form
        noValidate
        onSubmit={(event) => {
          // The modal sits in a portal, but React still bubbles its submit to any form around it.
          event.stopPropagation();
          void submit(event);
        }}
      >
        <Stack gap="md">
          <TextInput label="Name" required {...form.register('name')} error={errors.name?.message} data-autofocus />
          <TextInput label="Email" type="email" required {...form.register('email')} error={errors.email?.message} />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={form.formState.isSubmitting}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
