import {
  ZIP_RADIUS,
  ZIP_SUGGESTIONS,
  type ZipSearchResult,
  type ZipSuggestion,
  zipsetCreateSchema,
} from '@leadex/domain';
import {
  Badge,
  Button,
  Checkbox,
  Combobox,
  Group,
  Loader,
  NumberInput,
  Paper,
  Pill,
  ScrollArea,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
  useCombobox,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconMapPin, IconPlus, IconSearch } from '@tabler/icons-react';
import { type KeyboardEvent, useState } from 'react';
import { ApiRequestError } from '../../lib/api';
import { showSuccess } from '../../lib/notify';
import {
  addZips,
  countNew,
  describeSearch,
  type RegionSearch,
  removeZips,
  searchFor,
  validRadius,
  wantsSuggestions,
} from './region';
import { useCreateZipset, useZipSearch, useZipSuggestions } from './zips.api';

/** Admin §8: the toast after 'Create Region'. */
export const REGION_CREATED = { title: 'Region Created', message: "Don't forget to choose it in your campaign" };

/** Rows of a search shown at once (a 200-mile radius holds thousands; 'Add' still adds them all). */
const SHOWN_RESULTS = 500;
/** ZIP pills shown at once (admin §5: tag inputs show at most 200 pills). */
const SHOWN_PILLS = 200;
/** The radius is searched once the user stops typing it. */
const RADIUS_DEBOUNCE_MS = 500;

export interface RegionBuilderProps {
  /** Called with the saved region, so the campaign can choose it. */
  onCreated?: (zipset: { _id: string; name: string }) => void;
}

/** Enter inside the builder must not submit the campaign form around it. */
const keepEnter = (event: KeyboardEvent) => {
  if (event.key === 'Enter') event.preventDefault();
};

/**
 * The region builder (admin §2 Campaign detail): search a county or a ZIP (with a radius in miles),
 * add the results to the region being built (several searches may be combined, ZIPs removed one by
 * one), name it and 'Create Region'. It renders no <form>: it sits inside the campaign's form.
 */
export function RegionBuilder({ onCreated }: RegionBuilderProps) {
  const [choice, setChoice] = useState<ZipSuggestion | null>(null);
  const [radiusInput, setRadiusInput] = useState<string | number>(ZIP_RADIUS.defaultMiles);
  const [debouncedRadius] = useDebouncedValue(radiusInput, RADIUS_DEBOUNCE_MS);
  const [region, setRegion] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useCreateZipset();

  const radius = validRadius(debouncedRadius);
  let search: RegionSearch | null = null;
  if (choice?.type === 'County') search = searchFor(choice);
  else if (choice && radius !== null) search = searchFor(choice, radius);
  const results = useZipSearch(search);

  const changeRegion = (next: string[]) => {
    setRegion(next);
    if (next.length > 0) setErrors(({ zips: _, ...rest }) => rest);
  };

  async function createRegion() {
    const parsed = zipsetCreateSchema.safeParse({ name, description, zips: region });
    if (!parsed.success) {
      const found: Record<string, string> = {};
      for (const issue of parsed.error.issues) found[String(issue.path[0] ?? 'name')] ??= issue.message;
      setErrors(found);
      return;
    }
    try {
      const zipset = await create.mutateAsync(parsed.data);
      showSuccess(REGION_CREATED.message, REGION_CREATED.title);
      setRegion([]);
      setName('');
      setDescription('');
      setErrors({});
      onCreated?.({ _id: zipset._id, name: zipset.name });
    } catch (error) {
      // The api client has shown the toast; a 400 naming fields marks them here too.
      if (error instanceof ApiRequestError && error.status === 400) setErrors(error.errors);
    }
  }

  return (
    <Paper withBorder p="md" radius="md" bg="var(--mantine-color-gray-0)" data-testid="region-builder">
      <Stack gap="md">
        <div>
          <Title order={3} size="h5">
            Build a new region
          </Title>
          <Text c="dimmed" fz="sm">
            Search a county or a ZIP, add the ZIPs you want, then name the region and create it.
          </Text>
        </div>

        <Group align="flex-start" gap="md" wrap="wrap">
          <SuggestionInput
            onChoose={(next) => {
              setChoice(next);
              if (next?.type === 'Zip') setRadiusInput(ZIP_RADIUS.defaultMiles);
            }}
          />
          {choice?.type === 'Zip' && (
            <NumberInput
              label="Radius (miles)"
              value={radiusInput}
              onChange={setRadiusInput}
              onKeyDown={keepEnter}
              min={0}
              max={ZIP_RADIUS.maxMiles}
              step={1}
              decimalScale={1}
              w={140}
              error={validRadius(radiusInput) === null ? `From 1 to ${ZIP_RADIUS.maxMiles} miles` : undefined}
            />
          )}
        </Group>

        {search && (
          <SearchResults
            search={search}
            results={results.data}
            loading={results.isFetching}
            region={region}
            onChange={changeRegion}
          />
        )}

        <RegionZips region={region} onChange={changeRegion} error={errors.zips} />

        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Region Name"
            placeholder="Manhattan 10 miles"
            required
            value={name}
            onChange={(event) => {
              setName(event.currentTarget.value);
              setErrors(({ name: _, ...rest }) => rest);
            }}
            onKeyDown={keepEnter}
            error={errors.name}
          />
          <Textarea
            label="Description"
            placeholder="What the region covers (optional)"
            autosize
            minRows={1}
            maxRows={4}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            error={errors.description}
          />
        </SimpleGrid>

        <Group justify="flex-end">
          <Button leftSection={<IconMapPin size={16} />} onClick={createRegion} loading={create.isPending}>
            Create Region
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The search box: suggestions from 2 characters, asked 1000 ms after the last keystroke (admin §5). */
function SuggestionInput({ onChoose }: { onChoose: (choice: ZipSuggestion | null) => void }) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<ZipSuggestion | null>(null);
  const [debounced] = useDebouncedValue(text, ZIP_SUGGESTIONS.debounceMs);
  // The chosen suggestion's own text is not a new search.
  const query = chosen && debounced === chosen.displayName ? '' : debounced;
  const suggestions = useZipSuggestions(wantsSuggestions(query) ? query : '');
  const waiting = wantsSuggestions(text) && (text !== debounced || suggestions.isFetching);
  const options = wantsSuggestions(query) ? (suggestions.data ?? []) : [];

  const choose = (key: string) => {
    const picked = options.find((s) => s.key === key);
    if (!picked) return;
    setChosen(picked);
    setText(picked.displayName);
    onChoose(picked);
    combobox.closeDropdown();
  };

  let empty: string | null = null;
  if (!wantsSuggestions(text)) empty = `Type at least ${ZIP_SUGGESTIONS.minChars} characters`;
  else if (waiting) empty = 'Loading...';
  else if (options.length === 0) empty = 'No ZIP or county matches';

  return (
    <Combobox store={combobox} onOptionSubmit={choose} withinPortal>
      <Combobox.Target>
        <TextInput
          label="Search a county or ZIP"
          placeholder="e.g. 10001 or Kings County"
          leftSection={<IconSearch size={16} />}
          rightSection={waiting ? <Loader size={16} /> : null}
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            if (chosen) {
              setChosen(null);
              onChoose(null);
            }
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          onKeyDown={keepEnter}
          w={{ base: '100%', sm: 360 }}
          autoComplete="off"
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options>
          {empty !== null ? (
            <Combobox.Empty>{empty}</Combobox.Empty>
          ) : (
            <ScrollArea.Autosize mah={280} type="scroll">
              {options.map((s) => (
                <Combobox.Option value={s.key} key={s.key}>
                  <Group justify="space-between" wrap="nowrap">
                    <Text fz="sm">{s.displayName}</Text>
                    <Badge size="xs" variant="light" color={s.type === 'Zip' ? 'blue' : 'grape'}>
                      {s.type === 'Zip' ? 'ZIP' : 'County'}
                    </Badge>
                  </Group>
                </Combobox.Option>
              ))}
            </ScrollArea.Autosize>
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}

interface SearchResultsProps {
  search: RegionSearch;
  results: ZipSearchResult[] | undefined;
  loading: boolean;
  region: string[];
  onChange: (region: string[]) => void;
}

/** The ZIPs a search found (ZIP, city, county, distance), each toggled in or out of the region, or all added. */
function SearchResults({ search, results, loading, region, onChange }: SearchResultsProps) {
  if (!results) {
    return (
      <Group gap="xs">
        <Loader size="sm" />
        <Text fz="sm">Loading...</Text>
      </Group>
    );
  }
  const found = results.map((r) => r.zip);
  const fresh = countNew(region, found);
  const held = new Set(region);
  const byRadius = search.type === 'radius';
  return (
    <Stack gap="xs" data-testid="region-search-results">
      <Group justify="space-between">
        <Group gap="xs">
          <Text fw={600} fz="sm">
            {describeSearch(search, results.length)}
          </Text>
          {loading && <Loader size={14} />}
        </Group>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconPlus size={14} />}
          disabled={fresh === 0}
          onClick={() => onChange(addZips(region, found))}
        >
          {fresh === 0 && found.length > 0 ? 'All in region' : `Add ${fresh.toLocaleString('en-US')} to region`}
        </Button>
      </Group>
      {results.length === 0 ? (
        <Text c="dimmed" fz="sm">
          No results
        </Text>
      ) : (
        <ScrollArea.Autosize mah={280} type="auto" offsetScrollbars>
          <Table striped highlightOnHover stickyHeader verticalSpacing={4} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <VisuallyHidden>In region</VisuallyHidden>
                </Table.Th>
                <Table.Th>ZIP</Table.Th>
                <Table.Th>City</Table.Th>
                <Table.Th>County</Table.Th>
                {byRadius && <Table.Th ta="right">Distance</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {results.slice(0, SHOWN_RESULTS).map((r) => (
                <Table.Tr key={r.zip}>
                  <Table.Td>
                    <Checkbox
                      size="xs"
                      aria-label={`${r.zip} in region`}
                      checked={held.has(r.zip)}
                      onChange={(event) =>
                        onChange(event.currentTarget.checked ? addZips(region, [r.zip]) : removeZips(region, [r.zip]))
                      }
                    />
                  </Table.Td>
                  <Table.Td ff="monospace">{r.zip}</Table.Td>
                  <Table.Td>
                    {r.city}, {r.state}
                  </Table.Td>
                  <Table.Td>{r.county ?? ''}</Table.Td>
                  {byRadius && <Table.Td ta="right">{r.distance?.toFixed(1)} mi</Table.Td>}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {results.length > SHOWN_RESULTS && (
        <Text c="dimmed" fz="xs">
          Showing the first {SHOWN_RESULTS} of {results.length.toLocaleString('en-US')}; adding adds them all.
        </Text>
      )}
    </Stack>
  );
}

/** The region being built: its count and its ZIPs as removable pills. */
function RegionZips({
  region,
  onChange,
  error,
}: {
  region: string[];
  onChange: (region: string[]) => void;
  error?: string;
}) {
  return (
    <Stack gap={6} data-testid="region-zips">
      <Group justify="space-between">
        <Group gap="xs">
          <Text fw={600} fz="sm">
            Region
          </Text>
          <Badge variant="light" color={region.length ? 'blue' : 'gray'}>
            {region.length.toLocaleString('en-US')} {region.length === 1 ? 'ZIP' : 'ZIPs'}
          </Badge>
        </Group>
        {region.length > 0 && (
          <Button size="xs" variant="subtle" color="gray" onClick={() => onChange([])}>
            Clear
          </Button>
        )}
      </Group>
      {region.length === 0 ? (
        <Text c="dimmed" fz="sm">
          No ZIPs yet: search above and add the results.
        </Text>
      ) : (
        <ScrollArea.Autosize mah={140} type="auto">
          <Pill.Group>
            {region.slice(0, SHOWN_PILLS).map((zip) => (
              <Pill
                key={zip}
                withRemoveButton
                onRemove={() => onChange(removeZips(region, [zip]))}
                // Mantine hides the pill's remove button from assistive technology; here it is the way to remove.
                removeButtonProps={{ 'aria-label': `Remove ${zip}`, 'aria-hidden': false, tabIndex: 0 }}
              >
                {zip}
              </Pill>
            ))}
            {region.length > SHOWN_PILLS && (
              <Text c="dimmed" fz="sm">
                +{(region.length - SHOWN_PILLS).toLocaleString('en-US')} more
              </Text>
            )}
          </Pill.Group>
        </ScrollArea.Autosize>
      )}
      {error && (
        <Text c="red" fz="sm">
          {error}
        </Text>
      )}
    </Stack>
  );
}
