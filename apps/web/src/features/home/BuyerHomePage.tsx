import { Alert, SimpleGrid, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader';
import { PageLoader } from '../../components/PageLoader';
import { useClaims } from '../../lib/session';
import { PaymentInformation } from '../bills/PaymentInformation';
import { useBuyer } from '../buyers/buyers.api';
import { BuyerStats } from './BuyerStats';
import { MessageUs } from './MessageUs';

/** '/' for a buyer (portals spec §2 buyer home): Payment Information, Message Us and Stats. */
export function BuyerHomePage() {
  const { role_id } = useClaims();
  const buyer = useBuyer(role_id);
  if (!role_id) {
    return (
      <Alert color="yellow" icon={<IconInfoCircle />}>
        Your user is not linked to a buyer. Contact your provider.
      </Alert>
    );
  }
  if (buyer.isPending) return <PageLoader />;
  const record = buyer.data;
  return (
    <>
      <PageHeader
        title={record?.name ?? 'Buyer portal'}
        description="Your leads, campaigns and bills with the exchange."
      />
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {record && <PaymentInformation buyer={record} />}
          <MessageUs buyerId={role_id} />
        </SimpleGrid>
        <BuyerStats buyerId={role_id} />
      </Stack>
    </>
  );
}
