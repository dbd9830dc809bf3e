import { ActionIcon, Badge, Button, Group, Modal, Stack, TextInput, Tooltip } from '@mantine/core';
import { IconLock, IconLockOpen, IconMailForward, IconPencil, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { formatDate, formatTimestamp } from '../lib/format';
import { applyFieldErrors, inputProps, schemaResolver } from '../lib/forms';
import { showSuccess } from '../lib/notify';
import { DialogActions } from './DialogActions';
import { RecordsTable } from './RecordsTable';
import { Section } from './Section';

/** A person who signs in to a buyer's or a source's portal. */
export interface PortalUser {
  _id: string;
  name: string;
  email: string;
  /** Locked since `ts` (epoch seconds); absent or null when active. */
  hold?: { ts: number } | null;
}

/** Name and Email, as the user modal sends them. */
export interface PortalUserInput {
  name: string;
  email: string;
}

/** What the row buttons ask of the API: PUT …/{welcome|hold|unhold}/{userId}. */
export type PortalUserAction = 'welcome' | 'hold' | 'unhold';

/**
 * The calls behind the section's buttons; a failure rejects (the api client has raised its toast).
 * The section says what succeeded, in the spec's words.
 */
export interface PortalUserActions<TUser extends PortalUser> {
  /** Adds a user (no `userId`) or edits one; answers the saved user. */
  save: (input: PortalUserInput, userId?: string) => Promise<{ name: string }>;
  act: (action: PortalUserAction, userId: string) => Promise<unknown>;
  /** After a welcome email was sent (a source without an API key is offered one). */
  afterWelcome?: (user: TUser) => void;
}

export interface UsersSectionProps<TUser extends PortalUser> {
  users: TUser[];
  description: string;
  /** The modal's title ('Buyer User Details', 'Source User Details'). */
  modalTitle: string;
  /** The shared schema of Name and Email, so the modal shows the spec's messages. */
  schema: z.ZodType;
  /** What the buttons do; without them the list is read-only (a buyer looking at its own users). */
  actions?: PortalUserActions<TUser>;
}

/**
 * Users (admin §2, buyer and source detail): name, email, status On hold (since when) or Active;
 * the admin adds and edits users in a modal, sends welcome emails, locks and unlocks them.
 */
export function UsersSection<TUser extends PortalUser>({
  users,
  description,
  modalTitle,
  schema,
  actions,
}: UsersSectionProps<TUser>) {
  // The user in the modal: undefined when closed, null when adding.
  const [editing, setEditing] = useState<TUser | null | undefined>(undefined);
  // The action under way, and whose: that row's buttons wait for it.
  const [acting, setActing] = useState<{ userId: string; action: PortalUserAction } | null>(null);

  const run = async (user: TUser, action: PortalUserAction) => {
    if (!actions) return;
    setActing({ userId: user._id, action });
    try {
      await actions.act(action, user._id);
    } catch {
      return; // The api client has raised the toast.
    } finally {
      setActing(null);
    }
    if (action === 'welcome') {
      showSuccess(`Welcome email successfully sent to ${user.email}.`);
      actions.afterWelcome?.(user);
    } else {
      // The spec's two texts, written out whole so they can be found as written.
      showSuccess(action === 'hold' ? `Successfully locked ${user.email}.` : `Successfully unlocked ${user.email}.`);
    }
  };

  const rowActions = (user: TUser) => {
    const busy = acting?.userId === user._id;
    const waiting = (action: PortalUserAction) => busy && acting?.action === action;
    const lockAction: PortalUserAction = user.hold ? 'unhold' : 'hold';
    const lockLabel = user.hold ? 'Unlock' : 'Lock';
    return (
      <Group gap={4} justify="flex-end" wrap="nowrap" onClick={(event) => event.stopPropagation()}>
        <Tooltip label="Send welcome email">
          <ActionIcon
            variant="subtle"
            aria-label={`Send welcome email to ${user.email}`}
            onClick={() => run(user, 'welcome')}
            loading={waiting('welcome')}
            disabled={busy}
          >
            <IconMailForward size={18} />
          </ActionIcon>
        </Tooltip>
        <Tooltip label={lockLabel}>
          <ActionIcon
            variant="subtle"
            color={user.hold ? 'green' : 'red'}
            aria-label={`${lockLabel} ${user.email}`}
            onClick={() => run(user, lockAction)}
            loading={waiting(lockAction)}
            disabled={busy}
          >
            {user.hold ? <IconLockOpen size={18} /> : <IconLock size={18} />}
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Edit">
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={`Edit ${user.email}`}
            onClick={() => setEditing(user)}
            disabled={busy}
          >
            <IconPencil size={18} />
          </ActionIcon>
        </Tooltip>
      </Group>
    );
  };

  return (
    <Section
      title="Users"
      description={description}
      actions={
        actions && (
          <Button variant="light" leftSection={<IconUserPlus size={18} />} onClick={() => setEditing(null)}>
            Add User
          </Button>
        )
      }
    >
      <RecordsTable<TUser>
        records={users}
        columns={[
          { accessor: 'name', title: 'Name' },
          { accessor: 'email', title: 'Email' },
          { accessor: 'hold', title: 'Status', render: (user) => <UserStatus hold={user.hold} /> },
          { accessor: 'actions', title: 'Actions', textAlign: 'right', hidden: !actions, render: rowActions },
        ]}
      />
      {actions && (
        <UserModal
          // A fresh form for each user opened.
          key={editing === undefined ? 'closed' : (editing?._id ?? 'new')}
          title={modalTitle}
          schema={schema}
          user={editing ?? null}
          opened={editing !== undefined}
          onClose={() => setEditing(undefined)}
          onSave={async (input) => {
            const saved = await actions.save(input, editing?._id);
            showSuccess(editing ? `${saved.name} updated successfully` : 'User added successfully');
          }}
        />
      )}
    </Section>
  );
}

/** Active, or On hold with the date (the time in its tooltip). */
function UserStatus({ hold }: { hold: PortalUser['hold'] }) {
  if (!hold) {
    return (
      <Badge color="green" variant="light">
        Active
      </Badge>
    );
  }
  return (
    <Tooltip label={`On hold since ${formatTimestamp(hold.ts)}`}>
      <Badge color="red" variant="light">
        On hold {formatDate(hold.ts)}
      </Badge>
    </Tooltip>
  );
}

/** The user details modal: Name and Email, both required, to add a user or edit one. */
function UserModal({
  title,
  schema,
  user,
  opened,
  onClose,
  onSave,
}: {
  title: string;
  schema: z.ZodType;
  /** The user edited, or null to add one. */
  user: PortalUser | null;
  opened: boolean;
  onClose: () => void;
  onSave: (input: PortalUserInput) => Promise<void>;
}) {
  const form = useForm<PortalUserInput>({
    resolver: schemaResolver(schema),
    defaultValues: { name: user?.name ?? '', email: user?.email ?? '' },
  });
  const { isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSave(values);
      onClose();
    } catch (error) {
      // The api client raised the toast; a 400 naming Name or Email marks it here.
      applyFieldErrors(error, form.setError);
    }
  });

  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form
        noValidate
        onSubmit={(event) => {
          // The modal sits in a portal, but React still bubbles its submit to the record's form around it.
          event.stopPropagation();
          void submit(event);
        }}
      >
        <Stack gap="md">
          <TextInput label="Name" required data-autofocus {...inputProps(form, 'name')} />
          <TextInput label="Email" type="email" required {...inputProps(form, 'email')} />
          <DialogActions onCancel={onClose} submitting={isSubmitting} submitLabel="Save" />
        </Stack>
      </form>
    </Modal>
  );
}
