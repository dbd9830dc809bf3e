import { Button, Stack } from '@mantine/core';
import { IconDeviceFloppy, IconPencil } from '@tabler/icons-react';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { type FieldValues, FormProvider, type UseFormReturn } from 'react-hook-form';
import { applyFieldErrors, changedFields } from '../lib/forms';
import { type Crumb, PageHeader } from './PageHeader';

const EditingContext = createContext(false);

/** Whether the surrounding EditableForm is in edit mode (its fields are read-only otherwise). */
export function useEditing(): boolean {
  return useContext(EditingContext);
}

/**
 * Binds the FormFields inside to `form`, always editable: for a form with no read-only mode (a
 * dialog, a sign-up, a tool's inputs), so it uses the same fields as the record screens.
 */
export function EditingFields<TValues extends FieldValues>({
  form,
  children,
}: {
  form: UseFormReturn<TValues>;
  children: ReactNode;
}) {
  return (
    <FormProvider {...form}>
      <EditingContext.Provider value={true}>{children}</EditingContext.Provider>
    </FormProvider>
  );
}

export interface SaveRequest<TValues> {
  /** Every value of the form, as the inputs hold them (for a create). */
  values: TValues;
  /** Only what differs from the record (for an update); never empty. */
  changes: Partial<TValues>;
  /** The record as the form last loaded or saved it, for updates that compute their own diff. */
  original: TValues;
}

export interface EditableFormProps<TValues extends FieldValues> {
  form: UseFormReturn<TValues>;
  /**
   * The record as form values. Keep the reference stable (useMemo on the query's data): the form is
   * reset to it whenever it changes while not editing.
   */
  values: TValues | undefined;
  title: ReactNode;
  description?: ReactNode;
  breadcrumbs?: Crumb[];
  /** A record not saved yet: it starts and stays in edit mode, and shows only Save. */
  isNew?: boolean;
  /** No Edit button: the viewer may look but not change (a buyer's own profile). */
  readOnly?: boolean;
  /** Creates or updates; a rejection keeps edit mode, and a 400 naming fields marks them. */
  onSave: (request: SaveRequest<TValues>) => Promise<unknown>;
  /** Top-level objects the API replaces whole, sent whole when any of their fields changed. */
  wholeFields?: readonly (keyof TValues & string)[];
  /** More header buttons, left of Edit / Save. */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * A record's screen with a read-only mode and an edit mode (admin spec §2): Edit opens the fields,
 * Save with no changes just leaves edit mode, Cancel resets the form, and an update sends only the
 * changed fields. Fields inside read the mode with useEditing (see FormFields).
 */
export function EditableForm<TValues extends FieldValues>({
  form,
  values,
  title,
  description,
  breadcrumbs,
  isNew = false,
  readOnly = false,
  onSave,
  wholeFields,
  actions,
  children,
}: EditableFormProps<TValues>) {
  const [editing, setEditing] = useState(isNew && !readOnly);
  const shown = useRef<TValues | undefined>(undefined);

  // Show a newly loaded (or refetched) record, but never under the user's unsaved edits.
  useEffect(() => {
    if (!values || editing || shown.current === values) return;
    shown.current = values;
    form.reset(values);
  }, [values, editing, form]);

  const cancel = () => {
    form.reset();
    setEditing(false);
  };

  const save = form.handleSubmit(async () => {
    const current = form.getValues();
    const original = form.formState.defaultValues as TValues;
    const changes = changedFields(original, current, wholeFields);
    if (!isNew && Object.keys(changes).length === 0) {
      setEditing(false);
      return;
    }
    try {
      await onSave({ values: current, changes, original });
    } catch (error) {
      // The api client has raised the toast; a 400 naming fields also marks them here.
      applyFieldErrors(error, form.setError);
      return;
    }
    if (!isNew) {
      // What was saved is the new baseline for the next diff and for Cancel.
      form.reset(current);
      setEditing(false);
    }
  });

  // Distinct keys: a click on Edit must not become a click on the Save that replaces it (a button
  // whose type changes to submit mid-click submits the form).
  const buttons = readOnly ? null : editing ? (
    <>
      {!isNew && (
        <Button key="cancel" variant="default" onClick={cancel} disabled={form.formState.isSubmitting}>
          Cancel
        </Button>
      )}
      <Button
        key="save"
        type="submit"
        leftSection={<IconDeviceFloppy size={18} />}
        loading={form.formState.isSubmitting}
      >
        Save
      </Button>
    </>
  ) : (
    <Button key="edit" leftSection={<IconPencil size={18} />} onClick={() => setEditing(true)} disabled={!values}>
      Edit
    </Button>
  );

  return (
    <FormProvider {...form}>
      <EditingContext.Provider value={editing}>
        <form onSubmit={save} noValidate>
          <PageHeader
            title={title}
            description={description}
            breadcrumbs={breadcrumbs}
            actions={
              actions || buttons ? (
                <>
                  {actions}
                  {buttons}
                </>
              ) : undefined
            }
          />
          <Stack gap="lg">{children}</Stack>
        </form>
      </EditingContext.Provider>
    </FormProvider>
  );
}
