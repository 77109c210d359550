/**
 * One account per real address (issue 30, item 6): sign-up on the dashboard and the operator's
 * create-account refuse every address that normalises to one an account holds, or looks the same:
 * a trailing dot (the DNS root) and ideographic or other Unicode full stops are the same address
 * (409 EMAIL_TAKEN), a doubled dot is no address (400 invalid_email), a domain in IDNA's ASCII form
 * is the same as in Unicode (409), and characters that pass for one another (UTS #39's skeleton:
 * `0`/`o`, `1`/`l`, `rn`/`m`, Latin `ɑ`/`a`, `ı`/`i`) are refused as a look-alike (409
 * email_lookalike). A plain duplicate is 409 EMAIL_TAKEN, as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DomainError } from '../../src/kernel/errors.ts';
import { canonicalEmail, emailKey, normalizeEmail } from '../../src/domain/email.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { WebClient } from '../support/web.ts';

const PASSWORD = 'a long enough password';
const BOB = 'bob@example.com';
const IVAN = 'иван@почта.рф';

/** Each look-alike of Bob's or Ivan's address, and what sign-up answers: [status, code]. */
const LOOKALIKES: Array<[string, number, string]> = [
  ['bob@example.com.', 409, 'email_taken'], // the root's trailing dot
  ['bob@example.com..', 400, 'invalid_email'],
  ['bob@example..com', 400, 'invalid_email'],
  ['bob@example.com\u3002', 409, 'email_taken'], // ideographic full stop
  ['bob@example.com\uFF0E', 409, 'email_taken'], // full-width full stop
  ['bob@example.com\uFF61', 409, 'email_taken'], // half-width ideographic full stop
  ['bob@example\u3002com', 409, 'email_taken'],
  ['bob@example\uFF0Ecom\u3002', 409, 'email_taken'],
  ['bob@EXAMPLE.com.', 409, 'email_taken'],
  ['b0b@example.com', 409, 'email_lookalike'], // digit zero
  ['bob@examp1e.com', 409, 'email_lookalike'], // digit one
  ['bob@exarnple.com', 409, 'email_lookalike'], // r n
  ['bob@ex\u0251mple.com', 409, 'email_lookalike'], // Latin alpha
  ['b\u1D0Fb@example.com', 409, 'email_lookalike'], // small capital o
  ['иван@xn--80a1acny.xn--p1ai', 409, 'email_taken'], // IDNA's ASCII form of почта.рф
  ['ИВАН@ПОЧТА.РФ', 409, 'email_taken'],
  ['иван@почта\u3002рф', 409, 'email_taken'],
  ['ivan@почта.рф', 400, 'mixed_script_email'], // Latin letters at a Cyrillic domain
];

let srv: Service;
before(async () => {
  srv = await startService({ LOG_LEVEL: 'silent', LOGIN_RATE_LIMIT: '1000' });
  for (const email of [BOB, IVAN]) assert.equal((await new WebClient(srv.baseUrl).signUp(email, PASSWORD)).status, 303);
});
after(() => srv?.close());

const accounts = async () => (await srv.ctx.store.db.selectFrom('accounts').select(['email', 'email_key']).execute()).filter((a) => a.email !== 'owner@localhost.localdomain');

describe('one account per real address', () => {
  it('a plain duplicate is 409 EMAIL_TAKEN, as before (the operator CLI answers its code)', async () => {
    assert.equal((await new WebClient(srv.baseUrl).signUp(BOB, PASSWORD)).status, 409);
    await assert.rejects(srv.admin.createAccount(BOB, 'pro'), (err) => err instanceof DomainError && err.code === 'email_taken');
  });

  it('the dashboard refuses every look-alike (409, or 400 for no address), and no account is made', async () => {
    const wrong: string[] = [];
    for (const [email, status] of LOOKALIKES) {
      const got = await new WebClient(srv.baseUrl).signUp(email, PASSWORD);
      if (got.status !== status) wrong.push(`${JSON.stringify(email)}: ${got.status}, not ${status}`);
      else if (status === 409 && !/already exists/.test(got.text)) wrong.push(`${JSON.stringify(email)}: no message`);
    }
    assert.deepEqual(wrong, []);
    assert.deepEqual((await accounts()).map((a) => a.email).sort(), [BOB, IVAN]);
  });

  it('the operator’s create-account refuses them with the same codes', async () => {
    const wrong: string[] = [];
    for (const [email, , code] of LOOKALIKES) {
      try {
        await srv.admin.createAccount(email, 'standard');
        wrong.push(`${JSON.stringify(email)}: made`);
      } catch (err) {
        if (!(err instanceof DomainError) || err.code !== code) wrong.push(`${JSON.stringify(email)}: ${err instanceof DomainError ? err.code : String(err)}, not ${code}`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.equal((await accounts()).length, 2);
  });

  it('different addresses are still welcome, each stored with its skeleton', async () => {
    for (const email of ['bobby@example.com', 'bob@example.org', 'петр@почта.рф']) assert.equal((await new WebClient(srv.baseUrl).signUp(email, PASSWORD)).status, 303, email);
    const stored = await accounts();
    assert.ok(stored.every((a) => a.email_key === emailKey(a.email)), 'every account has its key');
    assert.equal(new Set(stored.map((a) => a.email_key)).size, stored.length);
  });

  it('log-in maps a trailing dot, a full stop or the ASCII domain to the address', async () => {
    for (const email of ['bob@example.com.', 'bob@example\u3002com', 'иван@xn--80a1acny.xn--p1ai']) {
      const web = new WebClient(srv.baseUrl);
      assert.equal((await web.logIn(email, PASSWORD)).status, 303, email);
    }
  });

  it('the canonical form and the key, as functions', () => {
    assert.equal(canonicalEmail(' Bob@Example.COM\u3002 '), BOB);
    assert.equal(canonicalEmail('иван@xn--80a1acny.xn--p1ai'), IVAN);
    assert.equal(normalizeEmail('bob@example.com\uFF0E'), BOB);
    assert.equal(emailKey('b0b@examp1e.com'), emailKey('bob@example.com'));
    assert.equal(emailKey('modern@example.com'), emailKey('rnodern@example.com'));
    assert.notEqual(emailKey('bobby@example.com'), emailKey(BOB));
  });
});
