import type { SessionClaims } from '@leadex/domain';
import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { ComingSoonPage } from '../components/ComingSoonPage';
import { LogoutPage } from '../features/auth/LogoutPage';
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage';
import { SignInPage } from '../features/auth/SignInPage';
import { BuyerDetailPage, BuyerProfilePage } from '../features/buyers/BuyerDetailPage';
import { BuyersListPage } from '../features/buyers/BuyersListPage';
import { CampaignDetailPage } from '../features/campaigns/CampaignDetailPage';
import { CampaignsListPage } from '../features/campaigns/CampaignsListPage';
import { DeliveriesListPage } from '../features/deliveries/DeliveriesListPage';
import { DeliveryDetailPage } from '../features/deliveries/DeliveryDetailPage';
import { AdminHomePage } from '../features/home/AdminHomePage';
import { BuyerHomePage } from '../features/home/BuyerHomePage';
import { SourceHomePage } from '../features/home/SourceHomePage';
import { SourceDetailPage } from '../features/sources/SourceDetailPage';
import { SourcesListPage } from '../features/sources/SourcesListPage';
import { AppLayout } from './AppLayout';
import { HOME_OF } from './navigation';
import { PublicLayout } from './PublicLayout';
import { useSession } from './session';

/** Screens later issues build: path and title, rendered by the one placeholder. */
type Placeholder = readonly [path: string, title: string];

const ADMIN_PLACEHOLDERS: Placeholder[] = [
  ['leads', 'Leads'],
  ['lead/:id', 'Lead'],
  ['returns', 'Returns'],
  ['bills', 'Bills'],
  ['bill/:id', 'Bill'],
  ['bill/:id/buyer/:buyerId', 'Bill'],
  ['settings', 'Settings'],
  ['sim', 'Simulator'],
  ['messages', 'Messages'],
];

const BUYER_PLACEHOLDERS: Placeholder[] = [
  ['leads', 'Leads'],
  ['lead/:id', 'Lead'],
  ['bills', 'Bills'],
  ['bill/:id', 'Bill'],
];

const SOURCE_PLACEHOLDERS: Placeholder[] = [
  ['leads', 'Leads'],
  ['lead/:id', 'Lead'],
];

/** The API documentation is loaded on demand (admin spec §2: /doc/api is lazy loaded). */
const ApiDocPage = lazy(() => import('../features/docs/ApiDocPage'));

function ApiDoc() {
  return (
    <Suspense fallback={<Loader />}>
      <ApiDocPage />
    </Suspense>
  );
}

const placeholders = (list: Placeholder[]) =>
  list.map(([path, title]) => <Route key={path} path={path} element={<ComingSoonPage title={title} />} />);

/**
 * The role guard: only the signed-in role's area is mounted, so another role's screens do not exist
 * for the user at all (an admin path typed by a buyer is an unknown path and redirects). The specs'
 * redirect rules are the catch-all route of each area.
 */
function areaRoutes(claims: SessionClaims | null) {
  switch (claims?.role) {
    case 'admin':
      return (
        <Route element={<AppLayout area="admin" />}>
          <Route index element={<AdminHomePage />} />
          <Route path="buyers" element={<BuyersListPage />} />
          <Route path="buyer/:id" element={<BuyerDetailPage />} />
          <Route path="campaigns" element={<CampaignsListPage />} />
          <Route path="campaign/:id" element={<CampaignDetailPage />} />
          <Route path="sources" element={<SourcesListPage />} />
          <Route path="source/:id" element={<SourceDetailPage />} />
          <Route path="deliveries" element={<DeliveriesListPage />} />
          <Route path="delivery/:id" element={<DeliveryDetailPage />} />
          <Route path="delivery/:id/:action" element={<DeliveryDetailPage />} />
          <Route path="doc/api" element={<ApiDoc />} />
          {placeholders(ADMIN_PLACEHOLDERS)}
          <Route path="*" element={<Navigate to={HOME_OF.admin} replace />} />
        </Route>
      );
    case 'buyer':
      return (
        <Route element={<AppLayout area="buyer" />}>
          <Route index element={<BuyerHomePage />} />
          <Route path="buyer" element={<BuyerProfilePage />} />
          <Route path="campaigns" element={<CampaignsListPage />} />
          <Route path="campaign/:id" element={<CampaignDetailPage />} />
          <Route path="deliveries" element={<DeliveriesListPage />} />
          <Route path="delivery/:id" element={<DeliveryDetailPage />} />
          <Route path="delivery/:id/:action" element={<DeliveryDetailPage />} />
          <Route path="doc/api" element={<ApiDoc />} />
          {placeholders(BUYER_PLACEHOLDERS)}
          <Route path="*" element={<Navigate to={HOME_OF.buyer} replace />} />
        </Route>
      );
    case 'source':
      return (
        <Route element={<AppLayout area="source" />}>
          <Route path="source" element={<SourceHomePage />} />
          <Route path="doc" element={<ApiDoc />} />
          <Route path="doc/api" element={<ApiDoc />} />
          {placeholders(SOURCE_PLACEHOLDERS)}
          <Route path="*" element={<Navigate to={HOME_OF.source} replace />} />
        </Route>
      );
    default:
      // A guest, a session without a role, or a role this app does not know: the logged-out area.
      return (
        <>
          <Route path="auth/*" element={<SignInPage />} />
          <Route
            path="doc/api"
            element={
              <PublicLayout>
                <ApiDoc />
              </PublicLayout>
            }
          />
          <Route path="*" element={<Navigate to="/auth" replace />} />
        </>
      );
  }
}

/** Every route of the app, chosen by the session's role. */
export function AppRoutes() {
  const session = useSession();
  if (session.isPending) {
    return (
      <Center h="100vh">
        <Loader />
      </Center>
    );
  }
  if (session.isError) return <Unreachable retry={() => session.refetch()} />;
  return (
    <Routes>
      {/* Reached from emails and the menu whatever the session: set a password, sign out. */}
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/logout" element={<LogoutPage />} />
      {areaRoutes(session.data)}
    </Routes>
  );
}

function Unreachable({ retry }: { retry: () => void }) {
  return (
    <Center h="100vh">
      <Stack align="center" gap="xs">
        <Title order={3}>Leadex is not reachable</Title>
        <Text c="dimmed">Check your connection and try again.</Text>
        <Button mt="sm" onClick={retry}>
          Try again
        </Button>
      </Stack>
    </Center>
  );
}
