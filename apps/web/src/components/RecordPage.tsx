import { Alert, Anchor } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { Fragment, type ReactNode, useMemo } from 'react';
import { type DefaultValues, type FieldValues, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import { schemaResolver } from '../lib/forms';
import { showSaved } from '../lib/notify';
import type { SaveRequest } from './EditableForm';
import { PageHeader } from './PageHeader';
import { PageLoader } from './PageLoader';

/**
 * The frame of a record's screen (/buyer/{id}, /campaign/{id}, …): the record loading, not found, or
 * shown in its EditableForm (read-only, Edit, Save). Each detail page composes these pieces.
 */

/**
 * A record route's screen, mounted afresh per id (and action): after a create the page moves from
 * /x/new to the new id, and the form must start from the saved record, not the blank one.
 */
export function RecordRoute({ children }: { children: (id: string, action: string | undefined) => ReactNode }) {
  const { id = 'new', action } = useParams();
  return <Fragment key={`${id}/${action ?? ''}`}>{children(id, action)}</Fragment>;
}

/** Where a record's screen stands: its record loading, missing (404 or out of reach), or ready. */
export type RecordStatus = 'loading' | 'missing' | 'ready';

/** The status of a record query; a record not saved yet is ready at once. */
export function recordStatus(query: { isPending: boolean; data?: unknown }, isNew = false): RecordStatus {
  if (isNew) return 'ready';
  if (query.isPending) return 'loading';
  return query.data ? 'ready' : 'missing';
}

export interface NotFoundText {
  /** The alert's title ('Buyer not found'). */
  title: string;
  /** Why, without saying which ('This buyer does not exist, or you cannot see it.'). */
  text: string;
  /** A way back to the list. */
  back?: { label: string; to: string };
}

export interface RecordFrameProps {
  status: RecordStatus;
  notFound: NotFoundText;
  /** The screen of the ready record. */
  children: ReactNode;
}

/** A Loader while the record loads, a red alert when there is none, else the screen. */
export function RecordFrame({ status, notFound, children }: RecordFrameProps) {
  if (status === 'loading') return <PageLoader />;
  if (status === 'missing') {
    // The screen's one h1 says what is missing (and names the tab); the alert says why.
    return (
      <>
        <PageHeader title={notFound.title} />
        <Alert color="red" icon={<IconInfoCircle />}>
          {notFound.text}
          {notFound.back && (
            <>
              {' '}
              <Anchor component={Link} to={notFound.back.to} fz="sm">
                {notFound.back.label}
              </Anchor>
            </>
          )}
        </Alert>
      </>
    );
  }
  return children;
}

/** What a save answers: the record with its id and name. */
export interface SavedRecord {
  _id: string;
  name: string;
}

export interface RecordFormOptions<TValues extends FieldValues, TRecord> {
  /** The record's path without its id ('/buyer'): a created record's page is `{base}/{id}`. */
  base: string;
  isNew: boolean;
  /** The shared Zod schema, so the form shows the spec's messages word for word. */
  schema: z.ZodType;
  /** A new record's values, also shown while a record loads; undefined until they are known. */
  blank: TValues | undefined;
  /** The record loaded (undefined while it loads or for a new one). */
  record: TRecord | undefined;
  /** The record as form values; a function defined once (module level), so values stay stable. */
  toValues: (record: TRecord) => TValues;
  create: (request: SaveRequest<TValues>) => Promise<SavedRecord>;
  /** Answers null when there is nothing to save after all. */
  update: (request: SaveRequest<TValues>) => Promise<SavedRecord | null>;
}

/**
 * A record's form and what its EditableForm needs (spread them on it): the values it shows (the
 * blanks of a new record, else the record's), and a save that ends in the green toast ('{name}
 * created successfully' or '… updated successfully') and moves a new record's page from
 * `{base}/new` to its id, replacing it, so Back does not reopen the blank form.
 */
export function useRecordForm<TValues extends FieldValues, TRecord>({
  base,
  isNew,
  schema,
  blank,
  record,
  toValues,
  create,
  update,
}: RecordFormOptions<TValues, TRecord>) {
  const navigate = useNavigate();
  // EditableForm resets the form whenever this reference changes while not editing.
  const values = useMemo(() => (isNew ? blank : record && toValues(record)), [isNew, blank, record, toValues]);
  const form = useForm<TValues>({
    resolver: schemaResolver(schema),
    defaultValues: (blank ?? values) as DefaultValues<TValues> | undefined,
  });
  const onSave = async (request: SaveRequest<TValues>) => {
    const saved = isNew ? await create(request) : await update(request);
    if (!saved) return;
    showSaved(saved.name, isNew);
    if (isNew) navigate(`${base}/${saved._id}`, { replace: true });
  };
  return { form, values, isNew, onSave };
}

export interface CreateOrUpdateFormOptions<TValues extends FieldValues, TRecord>
  extends Omit<RecordFormOptions<TValues, TRecord>, 'schema' | 'create' | 'update'> {
  /** The create form's schema and the edit form's (which may leave out what is fixed at creation). */
  schemas: { create: z.ZodType; update: z.ZodType };
  /** Sent every value of a new record. */
  create: { mutateAsync: (values: TValues) => Promise<SavedRecord> };
  /** Sent only the changed values of a record. */
  update: { mutateAsync: (changes: Partial<TValues>) => Promise<SavedRecord> };
}

/** What does not change from one record to the next: the form of an entity (a buyer's, a source's). */
export type CreateOrUpdateFormDefinition<TValues extends FieldValues, TRecord> = Pick<
  CreateOrUpdateFormOptions<TValues, TRecord>,
  'base' | 'schemas' | 'blank' | 'toValues'
>;

/** useRecordForm for a record created whole and updated by its changes (buyers, sources). */
export function useCreateOrUpdateForm<TValues extends FieldValues, TRecord>({
  schemas,
  create,
  update,
  ...options
}: CreateOrUpdateFormOptions<TValues, TRecord>) {
  return useRecordForm<TValues, TRecord>({
    ...options,
    schema: options.isNew ? schemas.create : schemas.update,
    create: ({ values }) => create.mutateAsync(values),
    update: ({ changes }) => update.mutateAsync(changes),
  });
}
