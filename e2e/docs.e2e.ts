import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser';
import { navigation, signIn, USERS } from './support';

const e2e = useBrowser();

describe('API documentation', () => {
  it('shows a guest the source API at /doc/api, rendered from its OpenAPI document', async () => {
    const { context, page } = await e2e.newPage();
    await page.goto('/doc/api');
    await page.getByRole('heading', { name: 'API Documentation' }).waitFor();
    for (const path of ['/api/ping', '/api/post', '/api/lead'])
      await page.getByText(path, { exact: true }).first().waitFor();
    // The field table comes from /api/openapi/public.json, the reason codes from the page.
    await page.getByText('One of the exchange’s services', { exact: false }).first().waitFor();
    await page.getByText('no_match', { exact: true }).first().waitFor();
    expect(page.url()).toMatch(/\/doc\/api$/);
    await context.close();
  });

  it('is a source’s API Doc page at /doc', async () => {
    const { context, page } = await e2e.newPage();
    await signIn(page, USERS.source.username, USERS.source.password);
    await navigation(page).getByText('API Doc', { exact: true }).click();
    await page.getByRole('heading', { name: 'API Documentation' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/doc');
    await page.getByText('/api/ping', { exact: true }).first().waitFor();
    await context.close();
  });
});
