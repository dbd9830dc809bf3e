import { useSearchParams } from 'react-router';
import { RecordFrame, recordStatus } from '../../components/RecordPage';
import { useClaims } from '../../lib/session';
import { SourceProfile } from '../source-portal/SourceProfile';
import { SourceWelcome } from '../source-portal/SourceWelcome';
import { useOwnSource } from '../source-portal/sourcePortal.api';

/**
 * /source (portals spec §2): the welcome page while the welcome claim is set, else the source's
 * details; /source?tab=profile (the Profile menu entry) always shows the details. Closing the welcome
 * page changes the claims, so this page turns into the details where it stands.
 */
export function SourceHomePage() {
  const { welcome, role_id } = useClaims();
  const [params] = useSearchParams();
  const showWelcome = welcome && params.get('tab') !== 'profile';
  const source = useOwnSource(role_id);

  return (
    <RecordFrame
      status={role_id ? recordStatus(source) : 'missing'}
      notFound={{ title: 'Source not found', text: 'Your user is not linked to a source: contact your provider.' }}
    >
      {source.data && (showWelcome ? <SourceWelcome source={source.data} /> : <SourceProfile source={source.data} />)}
    </RecordFrame>
  );
}
