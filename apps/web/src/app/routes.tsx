import type { Role, SessionClaims } from '@leadex/domain';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { type ReactNode, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { PageLoader } from '../components/PageLoader';
import { useSession } from '../lib/session';
import { lazyPage } from './lazyPage';
import { HOME_OF } from './navigation';

// Every area and screen is its own chunk (issue 11): the entry holds only the providers, the session
// and this table, so the sign-in page loads fast and each role downloads only its own screens.
const SignInPage = lazyPage(() => import('../features/auth/SignInPage'), 'SignInPage');
const ResetPasswordPage = lazyPage(() => import('../features/auth/ResetPasswordPage'), 'ResetPasswordPage');
const LogoutPage = lazyPage(() => import('../features/auth/LogoutPage'), 'LogoutPage');
const AppLayout = lazyPage(() => import('./AppLayout'), 'AppLayout');
const PublicLayout = lazyPage(() => import('./PublicLayout'), 'PublicLayout');
const AdminHomePage = lazyPage(() => import('../features/home/AdminHomePage'), 'AdminHomePage');
const BuyerHomePage = lazyPage(() => import('../features/home/BuyerHomePage'), 'BuyerHomePage');
const SourceHomePage = lazyPage(() => import('../features/home/SourceHomePage'), 'SourceHomePage');
const BuyersListPage = lazyPage(() => import('../features/buyers/BuyersListPage'), 'BuyersListPage');
const BuyerDetailPage = lazyPage(() => import('../features/buyers/BuyerDetailPage'), 'BuyerDetailPage');
const BuyerProfilePage = lazyPage(() => import('../features/buyers/BuyerDetailPage'), 'BuyerProfilePage');
const CampaignsListPage = lazyPage(() => import('../features/campaigns/CampaignsListPage'), 'CampaignsListPage');
const CampaignDetailPage = lazyPage(() => import('../features/campaigns/CampaignDetailPage'), 'CampaignDetailPage');
const SourcesListPage = lazyPage(() => import('../features/sources/SourcesListPage'), 'SourcesListPage');
const SourceDetailPage = lazyPage(() => import('../features/sources/SourceDetailPage'), 'SourceDetailPage');
const DeliveriesListPage = lazyPage(() => import('../features/deliveries/DeliveriesListPage'), 'DeliveriesListPage');
const DeliveryDetailPage = lazyPage(() => import('../features/deliveries/DeliveryDetailPage'), 'DeliveryDetailPage');
const LeadsListPage = lazyPage(() => import('../features/leads/LeadsListPage'), 'LeadsListPage');
const LeadDetailPage = lazyPage(() => import('../features/leads/LeadDetailPage'), 'LeadDetailPage');
const BillsListPage = lazyPage(() => import('../features/bills/BillsListPage'), 'BillsListPage');
const BillDetailPage = lazyPage(() => import('../features/bills/BillDetailPage'), 'BillDetailPage');
const MessagesPage = lazyPage(() => import('../features/messages/MessagesPage'), 'MessagesPage');
const SettingsPage = lazyPage(() => import('../features/settings/SettingsPage'), 'SettingsPage');
const SimulatorPage = lazyPage(() => import('../features/sim/SimulatorPage'), 'SimulatorPage');
const PingBidsPage = lazyPage(() => import('../features/deliveries/PingBidsPage'), 'PingBidsPage');
const CompliancePage = lazyPage(() => import('../features/compliance/CompliancePage'), 'CompliancePage');
const ReturnsListPage = lazyPage(() => import('../features/returns/ReturnsListPage'), 'ReturnsListPage');
const SuppressionPage = lazyPage(() => import('../features/suppression/SuppressionPage'), 'SuppressionPage');
/** The API documentation (admin spec §2: /doc/api is lazy loaded). */
const ApiDocPage = lazyPage(() => import('../features/docs/ApiDocPage'), 'default');

/** The leads list and lead detail, one screen for every role that takes the role into account. */
const LEAD_ROUTES = (
  <>
    <Route path="leads" element={<LeadsListPage />} />
    <Route path="lead/:id" element={<LeadDetailPage />} />
  </>
);

/** Screens the admin and the buyer share; each takes the viewer's role into account (DESIGN.md §3). */
const ADMIN_AND_BUYER_ROUTES = (
  <>
    <Route path="campaigns" element={<CampaignsListPage />} />
    <Route path="campaign/:id" element={<CampaignDetailPage />} />
    <Route path="deliveries" element={<DeliveriesListPage />} />
    <Route path="delivery/:id" element={<DeliveryDetailPage />} />
    <Route path="delivery/:id/:action" element={<DeliveryDetailPage />} />
    <Route path="doc/api" element={<ApiDocPage />} />
    <Route path="bills" element={<BillsListPage />} />
    <Route path="bill/:id" element={<BillDetailPage />} />
    <Route path="bill/:id/buyer/:buyerId" element={<BillDetailPage />} />
    <Route path="suppression" element={<SuppressionPage />} />
  </>
);

/** A signed-in role's area: its frame around its screens and the leads, an unknown path going home. */
function areaRoute(area: Role, screens: ReactNode) {
  return (
    <Route element={<AppLayout area={area} />}>
      {screens}
      {LEAD_ROUTES}
      <Route path="*" element={<Navigate to={HOME_OF[area]} replace />} />
    </Route>
  );
}

/**
 * The role guard: only the signed-in role's area is mounted, so another role's screens do not exist
 * for the user at all (an admin path typed by a buyer is an unknown path and redirects). The specs'
 * redirect rules are the catch-all route of each area.
 */
function areaRoutes(claims: SessionClaims | null) {
  switch (claims?.role) {
    case 'admin':
      return areaRoute(
        'admin',
        <>
          <Route index element={<AdminHomePage />} />
          <Route path="buyers" element={<BuyersListPage />} />
          <Route path="buyer/:id" element={<BuyerDetailPage />} />
          <Route path="sources" element={<SourcesListPage />} />
          <Route path="source/:id" element={<SourceDetailPage />} />
          <Route path="returns" element={<ReturnsListPage />} />
          <Route path="compliance" element={<CompliancePage />} />
          <Route path="pings" element={<PingBidsPage />} />
          <Route path="messages" element={<MessagesPage />} />
          <Route path="sim" element={<SimulatorPage />} />
          <Route path="settings" element={<SettingsPage />} />
          {ADMIN_AND_BUYER_ROUTES}
        </>,
      );
    case 'buyer':
      return areaRoute(
        'buyer',
        <>
          <Route index element={<BuyerHomePage />} />
          <Route path="buyer" element={<BuyerProfilePage />} />
          {ADMIN_AND_BUYER_ROUTES}
        </>,
      );
    case 'source':
      return areaRoute(
        'source',
        <>
          <Route path="source" element={<SourceHomePage />} />
          <Route path="doc" element={<ApiDocPage />} />
          <Route path="doc/api" element={<ApiDocPage />} />
        </>,
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
                <ApiDocPage />
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
  if (session.isPending) return <PageLoader fullScreen />;
  if (session.isError) return <Unreachable retry={() => session.refetch()} />;
  return (
    // A sign-in page or an area's frame loading; inside the frame, AppLayout shows its own loader.
    <Suspense fallback={<PageLoader fullScreen />}>
      <Routes>
        {/* Reached from emails and the menu whatever the session: set a password, sign out. */}
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        <Route path="/logout" element={<LogoutPage />} />
        {areaRoutes(session.data)}
      </Routes>
    </Suspense>
  );
}

function Unreachable({ retry }: { retry: () => void }) {
  return (
    <Center component="main" h="100vh">
      <Stack align="center" gap="xs">
        <Title order={1} size="h3">
          Leadex is not reachable
        </Title>
        <Text c="dimmed">Check your connection and try again.</Text>
        <Button mt="sm" onClick={retry}>
          Try again
        </Button>
      </Stack>
    </Center>
  );
}
