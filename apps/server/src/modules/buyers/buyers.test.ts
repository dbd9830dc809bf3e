import { describe, expect, it } from 'vitest';
import { buyerInput, createBuyerWithLogin, createSourceWithLogin } from '../../../test/factories';
import {
  expectFieldRefused,
  expectPagedByName,
  expectScoped404,
  resourceRequests,
  useAdminTestApp,
} from '../../../test/harness';
import { buyers, user } from '../../db/schema';

const { t, admin } = useAdminTestApp();

const { post, put, get } = resourceRequests(t, admin, '/api/buyer');
const count = async () => ({
  buyers: (await t.database.db.select().from(buyers)).length,
  users: (await t.database.db.select().from(user)).length,
});

describe('POST /api/buyer', () => {
  it('creates the buyer and its primary user from Username and Email', async () => {
    const input = buyerInput({
      username: 'sunny-solar',
      email: 'Ops@Sunny.example',
      state: 'TX',
      zip: '75001',
      tags: ['solar', 'tx'],
    });
    const res = await post(input);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      _id: expect.stringMatching(/^buy_/),
      username: 'sunny-solar',
      email: 'ops@sunny.example',
      state: 'TX',
      zip: '75001',
      tags: ['solar', 'tx'],
      bill: { pay: 'invoice', prepay: 0, period: 'monthly', grace: 3, threshold: 0 },
      ts: Math.floor(t.clock.now().getTime() / 1000),
    });
    expect(body.users).toEqual([
      { _id: expect.stringMatching(/^usr_/), name: input.name, email: 'ops@sunny.example', username: 'sunny-solar' },
    ]);
  });

  it("answers 400 'Usernames must be at least 4 characters long.' for 'ab', and writes nothing", async () => {
    const before = await count();
    const res = await post(buyerInput({ username: 'ab' }));
    expectFieldRefused(res, 'username', 'Usernames must be at least 4 characters long.');
    expect(await count()).toEqual(before);
  });

  it('names every invalid field', async () => {
    const res = await post({ username: 'Bad Name', bill: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      username: 'Username must contain only alphanumeric, underscore or hyphen characters.',
      name: 'Name is required',
      email: 'Email is required',
      phone: 'Phone is required',
      'bill.pay': 'Payment method is required',
    });
  });

  it('refuses a taken username or email without a half-written record', async () => {
    const first = buyerInput();
    expect((await post(first)).statusCode).toBe(201);
    const before = await count();
    const sameUsername = await post(buyerInput({ username: first.username }));
    expect(sameUsername.statusCode).toBe(400);
    expect(sameUsername.json().errors).toEqual({ username: 'Username is already taken.' });
    const sameEmail = await post(buyerInput({ email: first.email.toUpperCase() }));
    expect(sameEmail.statusCode).toBe(400);
    expect(sameEmail.json().errors).toEqual({ email: 'This email already exists.' });
    expect(await count()).toEqual(before);
  });

  it('refuses prepay over 100000 dollars', async () => {
    const res = await post(
      buyerInput({ bill: { pay: 'prepay', prepay: 100001, period: 'monthly', grace: 3, threshold: 0 } }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors['bill.prepay']).toBe('Prepay must be less than or equal to 100000');
  });
});

describe('GET /api/buyer', () => {
  it('searches by name, pages by 15 and sorts', async () => {
    for (let i = 0; i < 17; i++)
      expect((await post(buyerInput({ name: `Paged Plumbing ${String(i).padStart(2, '0')}` }))).statusCode).toBe(201);
    const first = await get('/api/buyer?name=paged%20plumbing');
    expect(first.statusCode).toBe(200);
    expect(first.json().total).toBe(17);
    expect(first.json().data).toHaveLength(15);
    expect(first.json().data[0]).toMatchObject({
      name: 'Paged Plumbing 00',
      username: expect.any(String),
      email: expect.any(String),
      phone: expect.any(String),
    });
    await expectPagedByName(t, admin.cookie, '/api/buyer?name=paged%20plumbing', {
      secondPage: ['Paged Plumbing 15', 'Paged Plumbing 16'],
      last: 'Paged Plumbing 16',
      total: 17,
    });
  });

  it('treats LIKE wildcards in the search as text', async () => {
    expect((await get('/api/buyer?name=%25')).json().total).toBe(0);
  });

  it('answers a bad page size with a 400 naming the field', async () => {
    expectFieldRefused(await get('/api/buyer?pageSize=0'), 'pageSize');
  });
});

describe('GET /api/buyer/{id}', () => {
  it('answers the buyer with its users on include=users', async () => {
    const created = (await post(buyerInput())).json();
    const res = await get(`/api/buyer/${created._id}?include=users`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: created._id, users: [{ username: created.username }] });
    expect((await get(`/api/buyer/${created._id}`)).json().users).toBeUndefined();
  });

  it('answers 404 for an unknown id', async () => {
    expect((await get('/api/buyer/buy_missing')).statusCode).toBe(404);
  });

  it('shows a buyer user its own record and answers 404 for another buyer', async () => {
    const mine = await createBuyerWithLogin(t);
    const other = await createBuyerWithLogin(t);
    expect((await get(`/api/buyer/${mine.buyer._id}?include=users`, mine.cookie)).statusCode).toBe(200);
    await expectScoped404(t, mine.cookie, 'Buyer', [{ method: 'GET', url: `/api/buyer/${other.buyer._id}` }]);
  });

  it('answers a source 403', async () => {
    const { buyer } = await createBuyerWithLogin(t);
    const source = await createSourceWithLogin(t);
    expect((await get(`/api/buyer/${buyer._id}`, source.cookie)).statusCode).toBe(403);
  });
});

describe('PUT /api/buyer/{id}', () => {
  it('changes only the fields sent', async () => {
    const created = (await post(buyerInput({ city: 'Austin', notes: 'Keep me' }))).json();
    const res = await put(created._id, {
      city: 'Dallas',
      bill: { threshold: 2500 },
      notify: { email: ['leads@acme.example'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      city: 'Dallas',
      notes: 'Keep me',
      name: created.name,
      bill: { pay: 'invoice', threshold: 2500, grace: 3 },
      notify: { email: ['leads@acme.example'], sms: [] },
    });
  });

  it('clears an optional field sent empty', async () => {
    const created = (await post(buyerInput({ address: '1 Main St' }))).json();
    expect((await put(created._id, { address: '' })).json().address).toBeUndefined();
  });

  it('refuses to change the username', async () => {
    const created = (await post(buyerInput())).json();
    const res = await put(created._id, { username: 'something-else' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ username: 'Username cannot be changed' });
  });

  it('moves the primary user’s sign-in to a new email', async () => {
    const { buyer, password } = await createBuyerWithLogin(t);
    expect((await put(buyer._id, { email: 'moved@acme.example' })).statusCode).toBe(200);
    await t.signIn('moved@acme.example', password);
  });

  it('refuses an email another user signs in with', async () => {
    const a = (await post(buyerInput())).json();
    const b = (await post(buyerInput())).json();
    const res = await put(a._id, { email: b.email });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ email: 'This email already exists.' });
    expect((await get(`/api/buyer/${a._id}`)).json().email).toBe(a.email);
  });

  it('is for admins: a buyer cannot change even its own record', async () => {
    const { buyer, cookie } = await createBuyerWithLogin(t);
    expect((await put(buyer._id, { name: 'Mine now' }, cookie)).statusCode).toBe(403);
  });

  it('answers 404 for an unknown buyer', async () => {
    expect((await put('buy_missing', { city: 'Nowhere' })).statusCode).toBe(404);
  });
});

describe('buyer users', () => {
  /** Adds a user to the buyer (Buyer User Details), as the admin. */
  const addUser = (buyerId: string, payload: object) =>
    t.request({ method: 'POST', url: `/api/buyer/${buyerId}/user`, as: admin.cookie, payload });

  it('adds a user (Buyer User Details) that signs in after its welcome email', async () => {
    const created = (await post(buyerInput())).json();
    const missing = await addUser(created._id, {});
    expect(missing.json().errors).toEqual({ name: 'Name is required', email: 'Email is required' });
    const res = await addUser(created._id, { name: 'Second User', email: 'second@acme.example' });
    expect(res.statusCode).toBe(201);
    const users = (await get(`/api/buyer/${created._id}?include=users`)).json().users;
    expect(users.map((u: { email: string }) => u.email)).toEqual([created.email, 'second@acme.example']);
    const edited = await t.request({
      method: 'PUT',
      url: `/api/buyer/${created._id}/user/${res.json()._id}`,
      as: admin.cookie,
      payload: { name: 'Renamed', email: 'second@acme.example' },
    });
    expect(edited.json().name).toBe('Renamed');
  });

  it('answers 404 for a user of another buyer on every user action', async () => {
    const a = await createBuyerWithLogin(t);
    const b = await createBuyerWithLogin(t);
    for (const action of ['welcome', 'hold', 'unhold']) {
      const res = await t.request({
        method: 'PUT',
        url: `/api/buyer/${a.buyer._id}/${action}/${b.user.id}`,
        as: admin.cookie,
      });
      expect(res.statusCode, action).toBe(404);
    }
    const edit = await t.request({
      method: 'PUT',
      url: `/api/buyer/${a.buyer._id}/user/${b.user.id}`,
      as: admin.cookie,
      payload: { name: 'X', email: 'x@example.com' },
    });
    expect(edit.statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api/session', as: b.cookie })).statusCode).toBe(200);
  });

  it('keeps user actions for admins', async () => {
    const { buyer, user, cookie } = await createBuyerWithLogin(t);
    expect(
      (await t.request({ method: 'PUT', url: `/api/buyer/${buyer._id}/hold/${user.id}`, as: cookie })).statusCode,
    ).toBe(403);
  });
});
