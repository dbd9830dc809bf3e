import type { LeadDetail, LeadExplanationEntry } from '@leadex/domain';
import { Badge, Text } from '@mantine/core';
import { useMemo } from 'react';
import { RecordsTable } from '../../components/RecordsTable';
import { Section } from '../../components/Section';
import { formatMoney } from '../../lib/format';
import { RecordLink, recordLinkColumn } from './LeadFields';
import { BID_OUTCOME_COLORS, bidOutcomeLabel } from './leadFormat';

type Row = LeadExplanationEntry & { _id: string };

/** Winners first, then the other bids (highest first), then the campaigns a rule excluded. */
function rank(entry: LeadExplanationEntry): number {
  if (entry.won) return 0;
  return entry.eligible ? 1 : 2;
}

function Outcome({ entry, sold }: { entry: LeadExplanationEntry; sold: boolean }) {
  if (entry.won)
    return (
      <Badge component="span" color="green" variant="light">
        Won
      </Badge>
    );
  // Nobody won (a minimum price above the payout, revenue below it): an eligible bid was not outbid.
  if (entry.eligible)
    return (
      <Badge component="span" color={sold ? 'blue' : 'gray'} variant="light">
        {sold ? 'Outbid' : 'Not sold'}
      </Badge>
    );
  return (
    <Badge component="span" color="gray" variant="light">
      Excluded
    </Badge>
  );
}

/** A Ping/Post buyer's answer for the campaign: its bid, no bid, a timeout, an error, or a refused post. */
function BuyerAnswer({ entry }: { entry: LeadExplanationEntry }) {
  if (!entry.bid_outcome) return null;
  return (
    <Badge component="span" color={BID_OUTCOME_COLORS[entry.bid_outcome]} variant="outline">
      {bidOutcomeLabel(entry.bid_outcome, entry.price)}
    </Badge>
  );
}

/**
 * The decision explained (DESIGN.md §5): every campaign the engine considered for the lead, with the
 * first rule that excluded it, or its bid and whether it won; a Ping/Post buyer's campaigns also with
 * how the buyer's system answered (bid $x, no bid, timeout, error, refused post).
 */
export function LeadExplanation({ lead }: { lead: LeadDetail }) {
  const buyerNames = useMemo(
    () => new Map((lead.match ?? []).map((m) => [m.buyer._id, m.buyer.name ?? ''] as const)),
    [lead.match],
  );
  return <DecisionExplained entries={lead.explanation ?? []} buyerNames={buyerNames} />;
}

/**
 * The engine's explanation as a table (the lead detail's, and the simulator's for a ping or a lead):
 * winners first, then the other bids, then the campaigns a rule excluded.
 */
export function DecisionExplained({
  entries,
  buyerNames = new Map(),
  title = 'Decision Explained',
  outcome,
}: {
  entries: LeadExplanationEntry[];
  buyerNames?: ReadonlyMap<string, string>;
  title?: string;
  /** What the call was answered, in a sentence before the count (the simulator's). */
  outcome?: string;
}) {
  const rows = useMemo<Row[]>(
    () =>
      entries
        .map((entry, i) => ({ ...entry, _id: `${entry.campaign}:${i}` }))
        .sort((a, b) => rank(a) - rank(b) || (b.price ?? 0) - (a.price ?? 0) || a.name.localeCompare(b.name)),
    [entries],
  );
  const won = rows.filter((r) => r.won).length;
  // Only a decision with Ping/Post buyers has their answers to show.
  const bidders = rows.some((r) => r.bid_outcome);
  return (
    <Section
      title={title}
      description={`${outcome ? `${outcome} ` : ''}${
        rows.length === 0
          ? 'No campaign was considered for this lead.'
          : `${rows.length} ${rows.length === 1 ? 'campaign' : 'campaigns'} considered, ${won === 0 ? 'none' : won} won.`
      }`}
    >
      <RecordsTable<Row>
        records={rows}
        noRecordsText="No campaign was considered"
        columns={[
          recordLinkColumn('name', 'Campaign', (r) => ({
            to: r.campaign ? `/campaign/${r.campaign}` : undefined,
            text: r.name || r.campaign,
          })),
          {
            accessor: 'buyer',
            title: 'Buyer',
            noWrap: true,
            render: (r) =>
              r.buyer_name || buyerNames.get(r.buyer) ? (
                <RecordLink to={`/buyer/${r.buyer}`}>{r.buyer_name || buyerNames.get(r.buyer) || ''}</RecordLink>
              ) : r.buyer ? (
                <RecordLink to={`/buyer/${r.buyer}`}>View buyer</RecordLink>
              ) : null,
          },
          { accessor: 'eligible', title: 'Outcome', render: (r) => <Outcome entry={r} sold={won > 0} /> },
          ...(bidders
            ? [{ accessor: 'bid_outcome', title: 'Ping/Post', render: (r: Row) => <BuyerAnswer entry={r} /> }]
            : []),
          {
            accessor: 'price',
            title: 'Bid',
            textAlign: 'right',
            render: (r) => (r.eligible ? formatMoney(r.price) : ''),
          },
          {
            accessor: 'rule',
            title: 'Excluded by',
            render: (r) =>
              r.eligible ? null : (
                <Text fz="sm">
                  <Text span fw={600} fz="sm">
                    {r.rule}
                  </Text>
                  {r.detail ? `: ${r.detail}` : ''}
                </Text>
              ),
          },
        ]}
      />
    </Section>
  );
}
