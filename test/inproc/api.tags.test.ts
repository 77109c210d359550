import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from '../../src/store/db/kysely.ts';
import { z } from 'zod';
import { CreateMindResponse, ErrorBody, Mind } from '../../src/http/schemas.ts';
import { MindEnvelope, MindsList, PutMindResponse, SearchResult, TagDeleted, TagEnvelope, TagList } from '../../src/http/schemas/minds.ts';
import { migrationProvider } from '../../src/store/db/migrations/index.ts';
import { client, fileForm, waitForSnapshot, type Client, type Reply } from '../../testkit/http.ts';
import { PG_SKIP, createDatabase, type TestDatabase } from '../../testkit/scale.ts';
import { failure, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';

/**
 * The hosted Mind object, PUT, listing by tag, search and tags (issue 14), over real HTTP on both
 * prefixes, with two accounts; search and tags also on PostgreSQL (TEST_DATABASE_URL).
 */
let srv: Service;
let sdk: TestSdk;
let api: Client;
let ms: Client;
/** A second account: nothing of one is ever visible to the other. */
let other: { accountId: string; apiKey: string; api: Client; sdk: TestSdk };

before(async () => {
  srv = await startService();
  sdk = srv.sdk();
  api = client(srv.api, srv.apiKey);
  ms = client(`${srv.baseUrl}/api/mindsim`, srv.apiKey);
  const b = await srv.admin.createAccount('tags-other@example.com', 'standard');
  other = { ...b, api: client(srv.api, b.apiKey), sdk: srv.sdk(b.apiKey) };
});
after(() => srv?.close());

const NONE = '00000000-0000-4000-8000-000000000000';
const ISO_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
let n = 0;
/** A name no other test uses, so searches and lists see only what a test made. */
const unique = (label: string) => `${label} ${process.pid}x${++n}`;

/** The body is valid for the schema, and has nothing beyond it. */
function conforms(schema: z.ZodType, r: Reply, status = 200) {
  assert.equal(r.status, status, JSON.stringify(r.body));
  const parsed = schema.safeParse(r.body);
  assert.ok(parsed.success, `${JSON.stringify(r.body).slice(0, 300)}: ${parsed.error?.message}`);
  assert.deepEqual(parsed.data, r.body, 'no field beyond the schema');
  return r.body;
}

const fieldsOf = (r: Reply) => (r.body.details?.fields ?? []).map((f: { field: string }) => f.field);
const namesOf = (minds: Array<{ name: string }>) => minds.map((m) => m.name);

describe('the Mind object', () => {
  it('POST /minds takes email, imageUrl, socialMedia, scope and tag names; answers {mind, digitalTwin, mindAssessments, mindCategories}', async () => {
    const body = {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      imageUrl: 'https://example.com/ada.png',
      socialMedia: { linkedin: 'https://linkedin.com/in/ada', x: '@ada' },
      scope: 'public',
      tags: ['Mathematics', 'mathematics', ' Poetry '],
    };
    const created = conforms(CreateMindResponse, await api.post('/minds', body));
    const { mind, digitalTwin } = created;
    assert.deepEqual([created.mindAssessments, created.mindCategories], [[], []]);
    assert.equal(mind.slug, 'ada-lovelace');
    assert.deepEqual([mind.email, mind.imageUrl, mind.scope, mind.isSelf, mind.tokenCount], [body.email, body.imageUrl, 'public', false, null]);
    assert.deepEqual(mind.socialMedia, body.socialMedia);
    assert.equal(mind.organizationId, srv.ownerAccountId);
    assert.deepEqual(namesOf(mind.tags), ['Mathematics', 'Poetry'], 'one tag per name whatever its case, trimmed');
    assert.match(mind.createdAt, ISO_Z);
    assert.deepEqual(mind.digitalTwins, [{ ...digitalTwin, mindAssessments: [] }]);
    assert.deepEqual([digitalTwin.name, digitalTwin.isDefault, digitalTwin.mindId], ['Default', true, mind.id]);
    // GET answers the same object, under both prefixes.
    assert.deepEqual(conforms(Mind, await api.get(`/minds/${mind.id}`)), mind);
    assert.deepEqual((await ms.get(`/minds/${mind.id}`)).body, mind);
  });

  it('defaults: private, no email, image or links; the slug is unique in the account and kept on rename', async () => {
    const first = (await api.post('/minds', { name: 'José Núñez' })).body.mind;
    const second = (await ms.post('/minds', { name: 'José  Núñez!' })).body.mind;
    const unicode = (await api.post('/minds', { name: '李小龙' })).body.mind;
    assert.deepEqual([first.scope, first.email, first.imageUrl, first.socialMedia, first.tags], ['private', null, null, null, []]);
    assert.deepEqual([first.slug, second.slug], ['jose-nunez', 'jose-nunez-2']);
    assert.match(unicode.slug, /^mind(-\d+)?$/, 'a name without Latin letters or digits gets "mind"');
    // Another account may use the same slug.
    assert.equal((await other.api.post('/minds', { name: 'José Núñez' })).body.mind.slug, 'jose-nunez');
    const renamed = (await api.patch(`/minds/${first.id}`, { name: 'Someone Else' })).body;
    assert.deepEqual([renamed.name, renamed.slug], ['Someone Else', 'jose-nunez']);
    conforms(Mind, await api.patch(`/minds/${first.id}`, { name: 'Someone Else' }));
  });

  it('refuses invalid fields with 400 naming them', async () => {
    const cases: Array<[unknown, string]> = [
      [{ name: 'x', email: 'not-an-email' }, 'body.email'],
      [{ name: 'x', imageUrl: 'javascript:alert(1)' }, 'body.imageUrl'],
      [{ name: 'x', imageUrl: 'ftp://example.com/a.png' }, 'body.imageUrl'],
      [{ name: 'x', scope: 'secret' }, 'body.scope'],
      [{ name: 'x', socialMedia: 'https://x.com/a' }, 'body.socialMedia'],
      [{ name: 'x', socialMedia: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`n${i}`, 'x'])) }, 'body.socialMedia'],
      [{ name: 'x', socialMedia: { '../etc': 'x' } }, 'body.socialMedia'],
      [{ name: 'x', tags: 'Marketing' }, 'body.tags'],
      [{ name: 'x', tags: ['a,b'] }, 'body.tags.0'],
      [{ name: 'x', tags: ['x'.repeat(101)] }, 'body.tags.0'],
      [{ name: 'x', tags: ['   '] }, 'body.tags.0'],
      [{ name: 'x', tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'body.tags'],
    ];
    for (const [body, field] of cases) {
      const r = await api.post('/minds', body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert.equal(r.body.code, 'VALIDATION_FAILED');
      assert.ok(fieldsOf(r).some((f: string) => f === field || f.startsWith(`${field}.`)), `${field} in ${JSON.stringify(r.body.details)}`);
      conforms(ErrorBody, r, 400);
    }
  });

  it('after a snapshot completes: tokenCount counts the words, the twin lists its snapshots (snapshots.digital_twin_id)', async () => {
    const { mind, digitalTwin } = await sdk.minds.create('Sam Okafor');
    const linked = await api.post(`/minds/${mind.id}/snapshots`, fileForm(teamsVtt(sampleInterview()), 'a.vtt', 'text/vtt', { digitalTwinId: digitalTwin.id }));
    const unlinked = await api.post(`/minds/${mind.id}/snapshots`, fileForm(teamsVtt(sampleInterview().slice(0, 6)), 'b.vtt', 'text/vtt'));
    for (const r of [linked, unlinked]) assert.equal((await waitForSnapshot(api, mind.id, r.body.mindAssessmentId)).status, 'completed');
    // Made without a twin, the second went to the default twin; unlinked, it belongs to none.
    assert.equal((await api.get(`/minds/${mind.id}`)).body.digitalTwins[0].mindAssessments.length, 2);
    assert.equal((await api.post(`/minds/${mind.id}/snapshots/${unlinked.body.mindAssessmentId}/unlink`, {})).status, 200);
    const got = conforms(Mind, await api.get(`/minds/${mind.id}`));
    const words = sampleInterview().filter((t) => t.speaker === 'Sam Okafor').reduce((sum, t) => sum + (t.text.match(/[\p{L}\p{N}']+/gu) ?? []).length, 0);
    assert.ok(got.tokenCount > 0.8 * words, `tokenCount ${got.tokenCount} ~ the person's words (~${words} in both files)`);
    const [twin] = got.digitalTwins;
    assert.deepEqual(twin.mindAssessments.map((a: { id: string }) => a.id), [linked.body.mindAssessmentId]);
    const [assessment] = twin.mindAssessments;
    assert.deepEqual([assessment.mindId, assessment.artifactId, assessment.status], [mind.id, linked.body.artifactId, 'completed']);
    assert.match(assessment.completedAt, ISO_Z);
    // The list shows the same object.
    const listed = (await api.get('/minds?limit=200')).body.minds.find((m: { id: string }) => m.id === mind.id);
    assert.deepEqual(listed, got);
  });
});

describe('PUT /minds/{mindId}', () => {
  it('changes the fields given, keeps the others; null clears; answers {success: true, mind}', async () => {
    const { mind } = (await api.post('/minds', { name: unique('Put'), email: 'a@example.com', socialMedia: { x: '@a' } })).body;
    const put = conforms(PutMindResponse, await ms.put(`/minds/${mind.id}`, { imageUrl: 'https://example.com/p.png', scope: 'public' }));
    assert.equal(put.success, true);
    assert.deepEqual([put.mind.name, put.mind.email, put.mind.imageUrl, put.mind.scope], [mind.name, 'a@example.com', 'https://example.com/p.png', 'public']);
    assert.ok(put.mind.updatedAt >= mind.updatedAt);
    const cleared = (await api.put(`/minds/${mind.id}`, { name: 'Put Renamed', email: null, socialMedia: null, imageUrl: null })).body.mind;
    assert.deepEqual([cleared.name, cleared.email, cleared.socialMedia, cleared.imageUrl, cleared.slug], ['Put Renamed', null, null, null, mind.slug]);
    const viaSdk = await sdk.minds.put(mind.id, { email: 'b@example.com' });
    assert.equal(viaSdk.mind.email, 'b@example.com');
    assert.equal((await sdk.minds.replace(mind.id, { scope: 'private' })).mind.scope, 'private');
  });

  it('ignores fields a client must not set (mass assignment); 400 for nothing to change or bad fields; 404 for unknown or foreign ids', async () => {
    const { mind } = (await api.post('/minds', { name: unique('Guarded') })).body;
    const r = await api.put(`/minds/${mind.id}`, {
      name: 'Guarded 2',
      id: NONE,
      slug: 'chosen',
      organizationId: other.accountId,
      tokenCount: 99,
      isSelf: true,
      createdAt: '2000-01-01T00:00:00.000Z',
      tags: [{ id: NONE, name: 'x' }],
    });
    assert.equal(r.status, 200);
    assert.deepEqual([r.body.mind.id, r.body.mind.slug, r.body.mind.organizationId, r.body.mind.tokenCount, r.body.mind.isSelf], [mind.id, mind.slug, srv.ownerAccountId, null, false]);
    assert.equal(r.body.mind.createdAt, mind.createdAt);
    assert.deepEqual(r.body.mind.tags, []);
    const empty = await api.put(`/minds/${mind.id}`, {});
    assert.deepEqual([empty.status, empty.body.code], [400, 'VALIDATION_FAILED']);
    assert.deepEqual(fieldsOf(await api.put(`/minds/${mind.id}`, { email: 42 })), ['body.email']);
    assert.equal((await api.put(`/minds/${mind.id}`, { name: '' })).status, 400);
    assert.equal((await api.put('/minds/not-a-uuid', { name: 'x' })).status, 400);
    assert.equal((await api.put(`/minds/${NONE}`, { name: 'x' })).body.code, 'MIND_NOT_FOUND');
    const foreign = await other.api.put(`/minds/${mind.id}`, { name: 'stolen' });
    assert.deepEqual([foreign.status, foreign.body.code], [404, 'MIND_NOT_FOUND']);
    assert.equal((await api.get(`/minds/${mind.id}`)).body.name, 'Guarded 2');
  });
});

/** Minds and tags for the listing and search checks, with names only this run uses. */
async function tagWorld(s: TestSdk, key: string) {
  const make = async (name: string, extra: Record<string, unknown> = {}) => (await s.minds.create({ name, ...extra })).mind;
  const ana = await make(`Ana Quintero ${key}`, { tags: [`Sales ${key}`, `North ${key}`] });
  const ben = await make(`Ben Ochoa ${key}`, { email: `ben.ochoa+${key}@Example.COM`, tags: [`sales ${key}`] });
  const cy = await make(`Cy ${key}`, { tags: [`Engineering_${key}`] });
  const dee = await make(`Dee 100% ${key}`);
  return { ana, ben, cy, dee };
}

describe('GET /minds with tags, and GET /minds/search', () => {
  it('lists minds carrying ANY of the tags: ?tags=a,b and ?tags=a&tags=b, case-insensitive; unknown names match none', async () => {
    const key = `l${process.pid}`;
    const { ana, ben, cy } = await tagWorld(sdk, key);
    const q = (s: string) => `/minds?tags=${encodeURIComponent(s)}`;
    assert.deepEqual(namesOf(conforms(MindsList, await api.get(q(`SALES ${key}`))).minds), [ben.name, ana.name]);
    assert.deepEqual(namesOf((await ms.get(`${q(`north ${key}`)},${encodeURIComponent(`Engineering_${key}`)}`)).body.minds), [cy.name, ana.name]);
    assert.deepEqual(namesOf((await api.get(`${q(`North ${key}`)}&tags=${encodeURIComponent(`engineering_${key}`)}`)).body.minds), [cy.name, ana.name]);
    assert.deepEqual((await api.get(q(`nobody ${key}`))).body, { minds: [] });
    assert.deepEqual(namesOf(await sdk.minds.list({ tags: [`Sales ${key}`, `Engineering_${key}`] }).all()), [cy.name, ben.name, ana.name]);
    assert.equal((await api.get(`/minds?tags=${'x'.repeat(101)}`)).status, 400);
  });

  it('pages a tag filter with the filter kept in the Link header', async () => {
    const key = `p${process.pid}`;
    for (let i = 0; i < 5; i++) await sdk.minds.create({ name: `Paged ${i} ${key}`, tags: [i % 2 ? `Odd ${key}` : `Even ${key}`] });
    const first = await api.get(`/minds?limit=2&tags=${encodeURIComponent(`even ${key}`)}`);
    const link = first.headers.get('link') ?? '';
    assert.match(link, /^<[^>]+[?&]tags=even%20p\d+[^>]*>; rel="next"$/);
    const seen: string[] = [];
    for await (const page of sdk.minds.list({ limit: 2, tags: [`EVEN ${key}`] }).pages()) seen.push(...namesOf(page));
    assert.deepEqual(seen, [4, 2, 0].map((i) => `Paged ${i} ${key}`));
  });

  it('searches name, email and tag names: partial, case-insensitive, %, _ and \\ taken literally; {minds, count}', async () => {
    const key = `s${process.pid}`;
    const { ana, ben, cy, dee } = await tagWorld(sdk, key);
    const search = async (query: string, c: Client = api) => conforms(SearchResult, await c.get(`/minds/search?query=${encodeURIComponent(query)}`));
    assert.deepEqual(namesOf((await search(`QUINTERO ${key}`)).minds), [ana.name], 'name');
    assert.deepEqual(namesOf((await search(`OCHOA+${key}@example`)).minds), [ben.name], 'email');
    assert.deepEqual(namesOf((await search(`ales ${key}`, ms)).minds), [ben.name, ana.name], 'tag name');
    assert.deepEqual(namesOf((await search(`g_${key}`)).minds), [cy.name], '_ is a character, not a wildcard');
    assert.deepEqual(namesOf((await search(`0% ${key}`)).minds), [dee.name], '% is a character');
    assert.deepEqual((await search(`%${key}%x`)).minds, []);
    assert.deepEqual((await search('\\')).minds.length, 0);
    const limited = await sdk.minds.search(key, { limit: 2 });
    assert.deepEqual([limited.minds.length, limited.count], [2, 4], 'count is every match, minds at most limit');
  });

  it('"search" is never taken for a mind id; a missing or empty query is 400', async () => {
    for (const url of ['/minds/search', '/minds/search?query=', '/minds/search?query=%20%20', `/minds/search?query=${'x'.repeat(201)}`, '/minds/search?query=a&limit=0']) {
      const r = await api.get(url);
      assert.deepEqual([r.status, r.body.code], [400, 'VALIDATION_FAILED'], url);
    }
    assert.equal((await api.get('/minds/search/')).status, 400, 'the trailing slash reaches search too');
  });
});

describe('tags', () => {
  it('PUT /minds/{id}/tags sets exactly these tags (made where missing, existing ones matched whatever their case); [] clears', async () => {
    const { mind } = await sdk.minds.create({ name: unique('Tagged'), tags: ['Alpha-T'] });
    const set = conforms(MindEnvelope, await ms.put(`/minds/${mind.id}/tags`, { tagNames: ['alpha-t', 'Beta-T', 'BETA-T'] }));
    assert.deepEqual(namesOf(set.mind.tags), ['Alpha-T', 'Beta-T'], 'the existing spelling is kept; repeats count once');
    assert.equal(set.mind.tags[0].id, mind.tags[0]?.id);
    assert.ok(set.mind.updatedAt >= mind.updatedAt);
    assert.deepEqual((await sdk.minds.setTags(mind.id, [])).mind.tags, []);
    assert.ok(namesOf((await sdk.tags.list()).tags).includes('Beta-T'), 'a tag outlives its last mind');
    for (const bad of [{}, { tagNames: 'x' }, { tagNames: [1] }, { tagNames: ['a,b'] }, { tagNames: Array.from({ length: 51 }, (_, i) => `t${i}`) }]) {
      assert.equal((await api.put(`/minds/${mind.id}/tags`, bad)).status, 400, JSON.stringify(bad).slice(0, 60));
    }
    assert.equal((await api.put(`/minds/${NONE}/tags`, { tagNames: ['x'] })).body.code, 'MIND_NOT_FOUND');
  });

  it('GET /tags lists by name; PUT renames (409 on a clash whatever the case); DELETE removes it from every mind', async () => {
    const key = `t${process.pid}`;
    const { mind } = await sdk.minds.create({ name: unique('Tag admin'), tags: [`Zeta ${key}`, `alpha ${key}`] });
    const second = await sdk.minds.create({ name: unique('Tag admin 2'), tags: [`Zeta ${key}`] });
    const listed = conforms(TagList, await api.get('/tags')).tags.filter((t: { name: string }) => t.name.endsWith(key));
    assert.deepEqual(namesOf(listed), [`alpha ${key}`, `Zeta ${key}`]);
    const [alpha, zeta] = listed as Array<{ id: string; name: string }>;

    const renamed = conforms(TagEnvelope, await ms.put(`/tags/${alpha!.id}`, { name: `Alpha ${key}` }));
    assert.deepEqual(renamed, { tag: { id: alpha!.id, name: `Alpha ${key}` } }, 'a tag may change its own case');
    const clash = await api.put(`/tags/${alpha!.id}`, { name: `ZETA ${key}` });
    assert.deepEqual([clash.status, clash.body.code], [409, 'TAG_NAME_TAKEN']);
    conforms(ErrorBody, clash, 409);
    assert.deepEqual(namesOf((await sdk.minds.get(mind.id)).tags), [`Alpha ${key}`, `Zeta ${key}`]);
    assert.equal((await sdk.tags.rename(zeta!.id, `Omega ${key}`)).tag.name, `Omega ${key}`);

    const deleted = conforms(TagDeleted, await ms.del(`/tags/${zeta!.id}`));
    assert.deepEqual(deleted, { message: 'Tag deleted successfully', tagId: zeta!.id });
    assert.deepEqual(namesOf((await sdk.minds.get(mind.id)).tags), [`Alpha ${key}`]);
    assert.deepEqual((await sdk.minds.get(second.mind.id)).tags, []);
    assert.equal((await failure(sdk.tags.delete(zeta!.id))).code, 'TAG_NOT_FOUND');
    assert.deepEqual((await sdk.tags.delete(alpha!.id)).tagId, alpha!.id);

    for (const [method, url, body, status] of [
      ['PUT', `/tags/${NONE}`, { name: 'x' }, 404],
      ['PUT', '/tags/not-a-uuid', { name: 'x' }, 400],
      ['PUT', `/tags/${NONE}`, { name: '' }, 400],
      ['PUT', `/tags/${NONE}`, { name: 'a,b' }, 400],
      ['PUT', `/tags/${NONE}`, {}, 400],
      ['DELETE', `/tags/${NONE}`, undefined, 404],
      ['DELETE', '/tags/not-a-uuid', undefined, 400],
    ] as const) {
      const r = await api.call(method, url, body);
      assert.equal(r.status, status, `${method} ${url} ${JSON.stringify(body)}`);
      conforms(ErrorBody, r, status);
    }
  });
});

describe('two accounts', () => {
  it("another account's tags, minds and searches never appear; its ids answer 404", async () => {
    const key = `a${process.pid}`;
    const { mind } = await sdk.minds.create({ name: `Private Person ${key}`, email: `private-${key}@example.com`, tags: [`Secret ${key}`] });
    const tagId = mind.tags[0]!.id;
    // The same tag name in the other account is another tag.
    const theirs = (await other.sdk.minds.create({ name: `Their Person ${key}`, tags: [`secret ${key}`] })).mind;
    assert.notEqual(theirs.tags[0]!.id, tagId);

    const seen = JSON.stringify([
      (await other.api.get('/tags')).body,
      (await other.api.get('/minds?limit=200')).body,
      (await other.api.get(`/minds?tags=${encodeURIComponent(`Secret ${key}`)}`)).body,
      (await other.api.get(`/minds/search?query=${encodeURIComponent(`private person ${key}`)}`)).body,
      (await other.api.get(`/minds/search?query=${encodeURIComponent(`private-${key}`)}`)).body,
      (await other.api.get(`/minds/search?query=${encodeURIComponent(`secret ${key}`)}`)).body,
    ]);
    for (const leak of [mind.id, tagId, `Private Person ${key}`, `private-${key}`, `Secret ${key}`]) assert.ok(!seen.includes(leak), `${leak} seen by the other account`);
    assert.deepEqual(namesOf((await other.sdk.minds.search(key)).minds), [theirs.name]);

    for (const r of [
      await other.api.put(`/tags/${tagId}`, { name: 'Stolen' }),
      await other.api.del(`/tags/${tagId}`),
      await other.api.put(`/minds/${mind.id}/tags`, { tagNames: [] }),
      await other.api.put(`/minds/${mind.id}`, { name: 'Stolen' }),
    ]) {
      assert.equal(r.status, 404);
      assert.doesNotMatch(JSON.stringify(r.body), new RegExp(key));
    }
    const after = await sdk.minds.get(mind.id);
    assert.deepEqual([after.name, namesOf(after.tags)], [`Private Person ${key}`, [`Secret ${key}`]]);
    assert.deepEqual(namesOf((await other.sdk.tags.list()).tags), [`secret ${key}`]);
  });
});

/** One run of tags and search whose answers must be the same on every database. */
async function portableScenario(s: TestSdk) {
  const key = 'portable';
  const { ana, ben } = await tagWorld(s, key);
  await s.minds.create({ name: 'ÉMILE Zola portable', tags: ['Ünïcode portable'] });
  const search = async (q: string) => namesOf((await s.minds.search(q)).minds);
  return {
    byTag: namesOf(await s.minds.list({ tags: [`SALES ${key}`] }).all()),
    byName: await search('quintero'),
    byEmail: await search('EXAMPLE.com'),
    byTagName: await search('ales port'),
    underscore: await search('g_port'),
    percent: await search('100%'),
    accents: await search('émile'),
    unicodeTag: await search('ÜNÏ'),
    tags: namesOf((await s.tags.list()).tags),
    set: namesOf((await s.minds.setTags(ana.id, ['north PORTABLE', 'New portable'])).mind.tags),
    clash: (await failure(s.tags.rename((await s.tags.list()).tags.find((t) => t.name === 'New portable')!.id, 'NORTH portable'))).code,
    slug: (await s.minds.create(`Ben Ochoa ${key}`)).mind.slug,
    ben: ben.slug,
  };
}

const PORTABLE = {
  byTag: ['Ben Ochoa portable', 'Ana Quintero portable'],
  byName: ['Ana Quintero portable'],
  byEmail: ['Ben Ochoa portable'],
  byTagName: ['Ben Ochoa portable', 'Ana Quintero portable'],
  underscore: ['Cy portable'],
  percent: ['Dee 100% portable'],
  accents: ['ÉMILE Zola portable'],
  unicodeTag: ['ÉMILE Zola portable'],
  tags: ['Engineering_portable', 'North portable', 'Sales portable', 'Ünïcode portable'],
  set: ['New portable', 'North portable'],
  clash: 'TAG_NAME_TAKEN',
  slug: 'ben-ochoa-portable-2',
  ben: 'ben-ochoa-portable',
};

describe('the same answers on SQLite and PostgreSQL', () => {
  it('on SQLite', async () => {
    const fresh = await startService({ RUN_WORKER: 'false' });
    try {
      assert.deepEqual(await portableScenario(fresh.sdk()), PORTABLE);
    } finally {
      await fresh.close();
    }
  });

  describe('on PostgreSQL', { skip: PG_SKIP }, () => {
    let db: TestDatabase;
    let pgSrv: Service;
    before(async () => {
      db = await createDatabase();
      pgSrv = await startService({ DATABASE_URL: db.url, RUN_WORKER: 'false' });
    });
    after(async () => {
      await pgSrv?.close();
      await db?.drop();
    });

    it('search, tag filters, case-insensitive names and slugs', async () => {
      assert.deepEqual(await portableScenario(pgSrv.sdk()), PORTABLE);
      const b = await pgSrv.admin.createAccount('pg-other@example.com', 'standard');
      assert.deepEqual((await pgSrv.sdk(b.apiKey).minds.search('portable')).minds, [], 'nothing of another account');
    });
  });
});

describe('migration 006', () => {
  it('fills slugs (unique per account) and name keys of existing minds, and token counts from stored profiles', async () => {
    const db = new Kysely<Record<string, Record<string, unknown>>>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      assert.equal((await migrator.migrateTo('005_job_groups')).error, undefined);
      const at = '2026-01-01T00:00:00.000Z';
      await db.insertInto('accounts').values([{ id: 'a1', email: 'a1@x', tier: 'pro', created_at: at }, { id: 'a2', email: 'a2@x', tier: 'pro', created_at: at }]).execute();
      const minds = [['m1', 'a1', 'Ada Lovelace', '1'], ['m2', 'a1', 'Ada  lovelace', '2'], ['m3', 'a2', 'Ada Lovelace', '3'], ['m4', 'a1', '???', '4']];
      for (const [id, account, name, t] of minds) {
        await db.insertInto('minds').values({ id, account_id: account, name, created_at: `${at.slice(0, -2)}${t}Z`, updated_at: at }).execute();
      }
      await db.insertInto('snapshots').values({ id: 's1', mind_id: 'm1', account_id: 'a1', artifact_id: 'x', status: 'completed', created_at: at }).execute();
      await db.insertInto('snapshot_profiles').values({ snapshot_id: 's1', mind_id: 'm1', profile: JSON.stringify({ style: { words: 321 } }), created_at: at }).execute();
      const { error, results } = await migrator.migrateToLatest();
      assert.equal(error, undefined);
      assert.ok(results?.some((r) => r.migrationName === '006_mind_tags' && r.status === 'Success'));
      const rows = await db.selectFrom('minds').select(['id', 'slug', 'name_key', 'scope']).orderBy('id').execute();
      assert.deepEqual(rows, [
        { id: 'm1', slug: 'ada-lovelace', name_key: 'ada lovelace', scope: 'private' },
        { id: 'm2', slug: 'ada-lovelace-2', name_key: 'ada  lovelace', scope: 'private' },
        { id: 'm3', slug: 'ada-lovelace', name_key: 'ada lovelace', scope: 'private' },
        { id: 'm4', slug: 'mind', name_key: '???', scope: 'private' },
      ]);
      assert.equal((await db.selectFrom('snapshots').select('token_count').executeTakeFirstOrThrow()).token_count, 321);
      assert.equal((await migrator.migrateDown()).error, undefined, 'and back down');
    } finally {
      await db.destroy();
    }
  });
});
