import { Card, SimpleGrid, Text, Title } from '@mantine/core';
import { useClaims } from '../../app/session';
import { PageHeader } from '../../components/PageHeader';
import { PageLoader } from '../../components/PageLoader';
import { formatPhone } from '../../lib/format';
import { PaymentInformation } from '../bills/PaymentInformation';
import { useBuyer } from '../buyers/buyers.api';

/** '/' for a buyer: Payment Information and its contact; Message Us and Stats come with later issues. */
export function BuyerHomePage() {
  const { role_id } = useClaims();
  const buyer = useBuyer(role_id);
  if (buyer.isPending && role_id) return <PageLoader />;
  const record = buyer.data;
  return (
    <>
      <PageHeader
        title={record?.name ?? 'Buyer portal'}
        description="Your leads, campaigns and bills with the exchange."
      />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {record && <PaymentInformation buyer={record} />}
        {record && (
          <Card p="lg" shadow="xs">
            <Title order={4} mb="xs">
              Contact
            </Title>
            <Text fz="sm">{record.email}</Text>
            <Text fz="sm">{formatPhone(record.phone)}</Text>
            {record.city && record.state && (
              <Text fz="sm" c="dimmed">
                {record.city}, {record.state} {record.zip}
              </Text>
            )}
          </Card>
        )}
      </SimpleGrid>
    </>
  );
}
