import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api';
import type { OpenApiDocument } from './openapi';

/** GET /api/openapi/public.json: the public source API's document, with the exchange's services and reasons. */
export function usePublicApiDocument() {
  return useQuery({
    queryKey: ['openapi', 'public'],
    queryFn: () => apiRequest<OpenApiDocument>('GET', '/api/openapi/public.json'),
  });
}
