import { type AdminMessage, MESSAGE_HISTORY_DAYS, messageLink, PAGE_SIZE } from '@leadex/domain';
import { Anchor, Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconEye, IconEyeOff } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { JsonViewer } from '../../components/JsonViewer';
import { ListPage } from '../../components/ListPage';
import { formatTimestamp } from '../../lib/format';
import { showSuccess } from '../../lib/notify';
import { queryKeys } from '../../lib/queryKeys';
import { useHideMessage, useHideMessages } from './messages.api';

/** View data: the message's data in the JSON viewer ('Error parsing json' for text that is not JSON). */
function viewData(message: AdminMessage) {
  modals.open({
    title: 'Message data',
    size: 'lg',
    children: <JsonViewer value={message.data} label="Message data" emptyText="No data" />,
  });
}

function MessageActions({ message }: { message: AdminMessage }) {
  const hide = useHideMessage();
  return (
    <Group gap="xs" wrap="nowrap" justify="flex-end">
      <Button size="xs" variant="default" leftSection={<IconEye size={14} />} onClick={() => viewData(message)}>
        View data
      </Button>
      <ConfirmButton
        size="xs"
        variant="light"
        color="gray"
        leftSection={<IconEyeOff size={14} />}
        loading={hide.isPending}
        confirmText="Are you sure you want to hide the message?"
        confirmLabel="Hide"
        onConfirm={() => hide.mutate(message._id)}
      >
        Hide
      </ConfirmButton>
    </Group>
  );
}

const columns: DataTableColumn<AdminMessage>[] = [
  { accessor: 'ts', title: 'Date', noWrap: true, render: (m) => formatTimestamp(m.ts) },
  {
    accessor: 'text',
    title: 'Message',
    render: (m) => {
      const link = messageLink(m.data);
      return (
        <>
          <Text fz="sm">{m.text}</Text>
          {link ? (
            <Anchor component={Link} to={link} fz="xs">
              Open
            </Anchor>
          ) : null}
        </>
      );
    },
  },
  { accessor: 'actions', title: '', textAlign: 'right', render: (m) => <MessageActions message={m} /> },
];

/**
 * Admin §2 Messages: the last 5 days' messages, newest first, 15 a page; View data and Hide, and Hide
 * Selected for the messages ticked (issue 27), after a confirmation.
 */
export function MessagesPage() {
  const [selected, setSelected] = useState<AdminMessage[]>([]);
  const hideMany = useHideMessages();
  const count = selected.length;
  const hideSelected = async () => {
    const { count: hidden } = await hideMany.mutateAsync(selected.map((m) => m._id));
    setSelected([]);
    showSuccess(`${hidden} ${hidden === 1 ? 'message' : 'messages'} hidden.`);
  };
  return (
    <ListPage
      title="Messages"
      description={`What the exchange raised in the last ${MESSAGE_HISTORY_DAYS} days for a person to look at. Hide a message once it is dealt with.`}
      filters={
        <Group justify="space-between" wrap="wrap">
          <Text fz="sm" c="dimmed">
            Tick messages to hide several at once.
          </Text>
          <ConfirmButton
            variant="light"
            color="gray"
            leftSection={<IconEyeOff size={16} />}
            disabled={count === 0}
            loading={hideMany.isPending}
            confirmText={`Are you sure you want to hide the ${count} selected ${count === 1 ? 'message' : 'messages'}?`}
            confirmLabel="Hide"
            onConfirm={hideSelected}
          >
            {count === 0 ? 'Hide Selected' : `Hide Selected (${count})`}
          </ConfirmButton>
        </Group>
      }
    >
      <DataTable<AdminMessage>
        path="/api/message/admin"
        queryKey={queryKeys.messages.all}
        columns={columns}
        pageSize={PAGE_SIZE.messages}
        pinLastColumn
        selection={{
          selected,
          onChange: setSelected,
          label: (m) => `Select the message of ${formatTimestamp(m.ts)}: ${m.text.slice(0, 60)}`,
        }}
      />
    </ListPage>
  );
}
