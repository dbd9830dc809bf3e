import {
  CAMPAIGN_STATUS_LABELS,
  CAMPAIGN_STATUSES,
  CAMPAIGN_TIME_ZONES,
  LOCATION_LABELS,
  LOCATION_TYPES,
  US_STATES,
} from '@leadex/domain';

/** What read-only empty fields of a campaign read: services and tags as the lists' N/A (admin §8), notes None. */
export const EMPTY_SERVICES = 'N/A';
export const EMPTY_NOTES = 'None';

export const STATUS_OPTIONS = CAMPAIGN_STATUSES.map((value) => ({ value, label: CAMPAIGN_STATUS_LABELS[value] }));
export const LOCATION_OPTIONS = LOCATION_TYPES.map((value) => ({ value, label: LOCATION_LABELS[value] }));
export const STATE_OPTIONS = [...US_STATES];
export const SHARED_OPTIONS = [
  { value: 'no', label: 'No' },
  { value: 'yes', label: 'Yes' },
];
export const ZONE_OPTIONS = CAMPAIGN_TIME_ZONES.map((zone) => ({ value: zone.value, label: zone.label }));

/** Hours 0 to 23 as the selects show them: 12 AM, 1 AM, … 11 PM. */
export const HOUR_OPTIONS = Array.from({ length: 24 }, (_, hour) => ({
  value: String(hour),
  label: `${hour % 12 === 0 ? 12 : hour % 12} ${hour < 12 ? 'AM' : 'PM'}`,
}));

/** A source restriction row as the Add button adds it: all of the source's leads. */
export const NEW_SOURCE_FILTER = { source: '', channel: '', price: '', shared_price: '', pct: 100 };
