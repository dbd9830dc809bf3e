import { type BuyerUser, buyerUserSchema } from '@leadex/domain';
import { ActionIcon, Badge, Button, Group, Modal, Stack, TextInput, Tooltip } from '@mantine/core';
import { IconLock, IconLockOpen, IconMailForward, IconPencil, IconUserPlus } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Section } from '../../components/Section';
import { formatDate, formatTimestamp } from '../../lib/format';
import { applyFieldErrors, schemaResolver } from '../../lib/forms';
import { showSuccess } from '../../lib/notify';
import { useBuyerUserActions } from './buyers.api';

interface UserFormValues {
  name: string;
  email: string;
}

/** The modal 'Buyer User Details' (admin §2): Name and Email, to add a user or edit one. */
function BuyerUserModal({
  buyerId,
  user,
  opened,
  onClose,
}: {
  buyerId: string;
  /** The user edited, or null to add one. */
  user: BuyerUser | null;
  opened: boolean;
  onClose: () => void;
}) {
  const actions = useBuyerUserActions(buyerId);
  const form = useForm<UserFormValues>({
    resolver: schemaResolver(buyerUserSchema),
    defaultValues: { name: user?.name ?? '', email: user?.email ?? '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      if (user) {
        const saved = await actions.edit.mutateAsync({ userId: user._id, ...values });
        showSuccess(`${saved.name} updated successfully`);
      } else {
        await actions.add.mutateAsync(values);
        showSuccess('User added successfully');
      }
      onClose();
    } catch (error) {
      // The api client raised the toast; a 400 naming Name or Email marks it here.
      applyFieldErrors(error, form.setError);
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title="Buyer User Details" centered>
      <form
        noValidate
        onSubmit={(event) => {
          // The modal sits in the buyer's form in React's tree: its submit must not save the buyer.
          event.stopPropagation();
          void submit(event);
        }}
      >
        <Stack gap="md">
          <TextInput label="Name" required data-autofocus {...form.register('name')} error={errors.name?.message} />
          <TextInput label="Email" type="email" required {...form.register('email')} error={errors.email?.message} />
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={onClose} disabled={isSubmitting}>
              Cancel
            </Button>
            <Button type="submit" loading={isSubmitting}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The user actions of one row: welcome email, lock or unlock, edit. */
function UserActions({ buyerId, user, onEdit }: { buyerId: string; user: BuyerUser; onEdit: () => void }) {
  const actions = useBuyerUserActions(buyerId);
  const busy = actions.welcome.isPending || actions.lock.isPending || actions.unlock.isPending;
  const welcome = async () => {
    const sent = await actions.welcome.mutateAsync(user._id).catch(() => null);
    if (sent) showSuccess(`Welcome email successfully sent to ${sent.email}.`);
  };
  const toggleLock = async () => {
    if (user.hold) {
      const done = await actions.unlock.mutateAsync(user._id).catch(() => null);
      if (done) showSuccess(`Successfully unlocked ${done.email}.`);
    } else {
      const done = await actions.lock.mutateAsync(user._id).catch(() => null);
      if (done) showSuccess(`Successfully locked ${done.email}.`);
    }
  };
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap" onClick={(event) => event.stopPropagation()}>
      <Tooltip label="Send welcome email">
        <ActionIcon
          variant="subtle"
          aria-label={`Send welcome email to ${user.email}`}
          onClick={welcome}
          loading={actions.welcome.isPending}
          disabled={busy}
        >
          <IconMailForward size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={user.hold ? 'Unlock' : 'Lock'}>
        <ActionIcon
          variant="subtle"
          color={user.hold ? 'green' : 'red'}
          aria-label={`${user.hold ? 'Unlock' : 'Lock'} ${user.email}`}
          onClick={toggleLock}
          loading={actions.lock.isPending || actions.unlock.isPending}
          disabled={busy}
        >
          {user.hold ? <IconLockOpen size={18} /> : <IconLock size={18} />}
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Edit">
        <ActionIcon variant="subtle" color="gray" aria-label={`Edit ${user.email}`} onClick={onEdit} disabled={busy}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/**
 * Users (admin §2, Buyer detail): name, email, status On hold or Active; the admin sends welcome
 * emails, locks, unlocks, edits and adds users; the buyer itself only reads the list.
 */
export function BuyerUsersSection({
  buyerId,
  users,
  selfView,
}: {
  buyerId: string;
  users: BuyerUser[];
  selfView: boolean;
}) {
  // The user in the modal: undefined when closed, null when adding.
  const [editing, setEditing] = useState<BuyerUser | null | undefined>(undefined);
  return (
    <Section
      title="Users"
      description={
        selfView
          ? 'To add, remove or change users, contact your provider.'
          : 'People who sign in to this buyer’s portal.'
      }
      actions={
        selfView ? undefined : (
          <Button variant="light" leftSection={<IconUserPlus size={18} />} onClick={() => setEditing(null)}>
            Add User
          </Button>
        )
      }
    >
      <DataTable<BuyerUser>
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
            title: 'Actions',
            textAlign: 'right',
            hidden: selfView,
            render: (user) => <UserActions buyerId={buyerId} user={user} onEdit={() => setEditing(user)} />,
          },
        ]}
      />
      {!selfView && (
        <BuyerUserModal
          // A fresh form for each user opened.
          key={editing === undefined ? 'closed' : (editing?._id ?? 'new')}
          buyerId={buyerId}
          user={editing ?? null}
          opened={editing !== undefined}
          onClose={() => setEditing(undefined)}
        />
      )}
    </Section>
  );
}
