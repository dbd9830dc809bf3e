import { type Source, type SourceUser, sourceUserSchema } from '@leadex/domain';
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { UsersSection } from '../../components/UsersSection';
import { showSuccess } from '../../lib/notify';
import { useCreateApiKey, useSourceUserActions } from './sources.api';

/** The source's users (admin §2, Source detail); a welcome email to a source without an API key offers one. */
export function SourceUsers({ source }: { source: Source }) {
  const actions = useSourceUserActions(source._id);
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

  return (
    <UsersSection<SourceUser>
      users={source.users ?? []}
      description="People who sign in to this source’s portal."
      modalTitle="Source User Details"
      schema={sourceUserSchema}
      actions={{
        ...actions,
        afterWelcome: () => {
          if (source.apikeys.length === 0) offerApiKey();
        },
      }}
    />
  );
}
