import { afterEach, describe, expect, it, vi } from 'vitest';

const showError = vi.fn();
vi.mock('./notify', () => ({ showError: (message: string) => showError(message) }));

const { api, ApiRequestError, setUnauthenticatedHandler } = await import('./api');

function answer(status: number, body?: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body === undefined ? null : JSON.stringify(body), { status })),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  showError.mockReset();
});

describe('api client', () => {
  it('answers the parsed body and sends query parameters without empty ones', async () => {
    answer(200, { data: [], total: 0 });
    await expect(api.get('/api/buyer', { query: { name: '', page: 2, sort: undefined } })).resolves.toEqual({
      data: [],
      total: 0,
    });
    expect(vi.mocked(fetch).mock.calls[0]?.[0]).toBe('/api/buyer?page=2');
  });

  it('repeats a parameter given a list (several field filters), one given one item once', async () => {
    answer(200, { data: [], total: 0 });
    await api.get('/api/lead/date/today', { query: { field: ['roof_shade:none', 'credit_rating:good'], page: 1 } });
    expect(vi.mocked(fetch).mock.calls[0]?.[0]).toBe(
      '/api/lead/date/today?field=roof_shade%3Anone&field=credit_rating%3Agood&page=1',
    );
    answer(200, { data: [], total: 0 });
    await api.get('/api/lead/date/today', { query: { field: ['roof_shade:none'] } });
    expect(vi.mocked(fetch).mock.calls[0]?.[0]).toBe('/api/lead/date/today?field=roof_shade%3Anone');
  });

  it("raises the server's message as the toast, with the field errors on the error", async () => {
    answer(400, {
      ok: false,
      message: 'Username is already taken.',
      errors: { username: 'Username is already taken.' },
    });
    const failure = await api.post('/api/buyer', {}).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiRequestError);
    expect(failure).toMatchObject({ status: 400, errors: { username: 'Username is already taken.' } });
    expect(showError).toHaveBeenCalledWith('Username is already taken.');
  });

  it("says 'An error occurred.' when the failure has no message", async () => {
    answer(502);
    await api.get('/api/buyer').catch(() => {});
    expect(showError).toHaveBeenCalledWith('An error occurred.');
  });

  it("says 'An unknown error occurred' when the server cannot be reached", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    const failure = await api.get('/api/buyer').catch((e: unknown) => e);
    expect(failure).toMatchObject({ status: 0, message: 'An unknown error occurred' });
    expect(showError).toHaveBeenCalledWith('An unknown error occurred');
  });

  it('raises no toast when the caller shows the failure itself, and reports a 401', async () => {
    const onUnauthenticated = vi.fn();
    setUnauthenticatedHandler(onUnauthenticated);
    answer(401, { ok: false, message: 'Invalid email or password' });
    await api.post('/api/auth/sign-in/email', {}, { toast: false }).catch(() => {});
    expect(showError).not.toHaveBeenCalled();
    expect(onUnauthenticated).toHaveBeenCalledOnce();
  });

  it('sends a text body as it is with its content type (a CSV file)', async () => {
    answer(200, { imported: 1 });
    const csv = 'date,source,amount\n2025-01-02,Search,12.50\n';
    await api.post('/api/ad-spend/csv', csv, { contentType: 'text/csv' });
    const init = vi.mocked(fetch).mock.calls[0]?.[1];
    expect(init?.body).toBe(csv);
    expect(init?.headers).toEqual({ 'content-type': 'text/csv' });
  });
});
