import { RETURN_REASONS, type ReturnRequest, returnRequestSchema } from '@leadex/domain';
import { Button, Group, Modal, Stack, Textarea } from '@mantine/core';
import { IconArrowBackUp, IconCheck, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ConfirmButton } from '../../components/ConfirmButton';
import { DialogActions } from '../../components/DialogActions';
import { EditingFields } from '../../components/EditableForm';
import { SelectField } from '../../components/FormFields';
import { applyFieldErrors, inputProps, schemaResolver } from '../../lib/forms';
import { showSuccess } from '../../lib/notify';
import { useReturnAction } from './returns.api';

const REASON_OPTIONS = RETURN_REASONS.map((reason) => ({ value: reason, label: reason }));

/** Portals §2 Buyer lead detail: Request Lead Return, and its dialog (§5: reason required, comment optional). */
export function RequestReturnButton({ leadId, matchId }: { leadId: string; matchId: string }) {
  const [opened, setOpened] = useState(false);
  const action = useReturnAction(leadId, matchId);
  const form = useForm<ReturnRequest>({
    resolver: schemaResolver(returnRequestSchema),
    defaultValues: { reason: undefined, comment: '' },
  });
  const { isSubmitting } = form.formState;
  const close = () => {
    setOpened(false);
    form.reset();
  };
  const submit = form.handleSubmit(async (values) => {
    try {
      const answer = await action.mutateAsync(values);
      showSuccess(answer.status === 'approved' ? 'Return approved' : 'Return requested');
      close();
    } catch (error) {
      applyFieldErrors(error, form.setError);
    }
  });

  return (
    <>
      <Button leftSection={<IconArrowBackUp size={18} />} onClick={() => setOpened(true)}>
        Request Lead Return
      </Button>
      <Modal opened={opened} onClose={close} title="Request Lead Return" centered>
        <EditingFields form={form}>
          <form noValidate onSubmit={submit}>
            <Stack gap="md">
              <SelectField
                name="reason"
                label="Reason"
                placeholder="Why do you return it?"
                required
                data-autofocus
                data={REASON_OPTIONS}
                comboboxProps={{ withinPortal: false }}
              />
              <Textarea label="Comment" autosize minRows={2} {...inputProps(form, 'comment')} />
              <DialogActions onCancel={close} submitting={isSubmitting} submitLabel="Request Return" />
            </Stack>
          </form>
        </EditingFields>
      </Modal>
    </>
  );
}

/**
 * The admin's Approve and Deny of a match's return (admin §2 Lead detail, Returns screen), each asking
 * first. Approve also works on a sale nobody asked to return; Deny only on a request.
 */
export function DecideReturnButtons({
  leadId,
  matchId,
  requested,
  buyerName,
  stacked = false,
}: {
  leadId: string;
  matchId: string;
  /** A request waits: Deny is offered too. */
  requested: boolean;
  buyerName: string;
  /** One above the other: a table's narrow actions column (the Returns screen at 1366 px, issue 27). */
  stacked?: boolean;
}) {
  const action = useReturnAction(leadId, matchId);
  const choices = [
    {
      label: 'Approve',
      color: 'green',
      icon: <IconCheck size={14} />,
      question: `Approve the return? ${buyerName} is credited the lead's price on its bill.`,
      body: { approve: true } as const,
      done: 'Return approved',
    },
    // Only a request can be denied.
    ...(requested
      ? [
          {
            label: 'Deny',
            color: 'red',
            icon: <IconX size={14} />,
            question: `Deny the return? ${buyerName} keeps paying for the lead.`,
            body: { deny: true } as const,
            done: 'Return denied',
          },
        ]
      : []),
  ];
  const Layout = stacked ? Stack : Group;
  return (
    <Layout gap="xs" {...(stacked ? { align: 'stretch' } : { wrap: 'nowrap' as const })}>
      {choices.map((choice) => (
        <ConfirmButton
          key={choice.label}
          size="xs"
          color={choice.color}
          variant="light"
          leftSection={choice.icon}
          loading={action.isPending}
          confirmText={choice.question}
          confirmLabel={choice.label}
          confirmColor={choice.color === 'red' ? 'red' : undefined}
          onConfirm={async () => {
            const answer = await action.mutateAsync(choice.body).catch(() => null);
            if (answer) showSuccess(choice.done);
          }}
        >
          {choice.label}
        </ConfirmButton>
      ))}
    </Layout>
  );
}
