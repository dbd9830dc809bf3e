import { RecordFrame, RecordRoute, recordStatus } from '../../components/RecordPage';
import { useClaims } from '../../lib/session';
import { AdminLeadDetail } from './AdminLeadDetail';
import { useLead } from './leads.api';
import { BuyerLeadDetail, SourceLeadDetail } from './PortalLeadDetail';

/**
 * /lead/{id} for the admin (editable, with the buyers, the delivery logs and the decision), the buyer
 * (read-only, its own match and billing) and the source (read-only, what it sent). Another owner's
 * lead answers 404 and reads as not found.
 */
export function LeadDetailPage() {
  return <RecordRoute>{(id) => <LeadDetail id={id} />}</RecordRoute>;
}

function LeadDetail({ id }: { id: string }) {
  const { role } = useClaims();
  const lead = useLead(id);
  return (
    <RecordFrame
      status={recordStatus(lead)}
      notFound={{
        title: 'Lead not found',
        text: 'This lead does not exist, or you cannot see it.',
        back: { label: 'Back to the leads', to: '/leads' },
      }}
    >
      {lead.data &&
        (role === 'admin' ? (
          <AdminLeadDetail lead={lead.data} />
        ) : role === 'buyer' ? (
          <BuyerLeadDetail lead={lead.data} />
        ) : (
          <SourceLeadDetail lead={lead.data} />
        ))}
    </RecordFrame>
  );
}
