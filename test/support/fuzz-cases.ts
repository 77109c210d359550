/**
 * Requests for the fuzz test (test/inproc/abuse.fuzz.test.ts), one arbitrary per endpoint: valid,
 * near-valid and invalid bodies, query strings and path ids, derived from the zod schemas of
 * src/http/schemas.ts where the route has one. Every case is sent by account B; ids of account A
 * are mixed into every id position.
 */
import fc, { type Arbitrary } from 'fast-check';
import { CreateMindBody, PageQuery, SignedUrlQuery, SimulateBody, UpdateMindBody } from '../../src/http/schemas.ts';
import { UsageQuery } from '../../src/http/schemas/usage.ts';
import { AccountPrivacyUpdate } from '../../src/http/schemas/consent.ts';
import { AuditQuery } from '../../src/http/schemas/audit.ts';
import { MindsQuery, PutMindBody, RenameTagBody, SearchQuery, SetTagsBody } from '../../src/http/schemas/minds.ts';
import { SimulationsQuery } from '../../src/http/schemas/simulations.ts';
import { CorrectSimulation, CreateCorrection } from '../../src/http/schemas/corrections.ts';
import { CreateReviewLinkBody } from '../../src/http/schemas/review-links.ts';
import { CreatePanelBody, PanelAnswersQuery, PanelsQuery } from '../../src/http/schemas/panels.ts';
import { LinkBody, TwinBody } from '../../src/http/schemas/snapshots.ts';
import { API, type World } from './abuse.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { deepJson, invalidJson, nastyString, nearValid, valid } from './zod-arbitrary.ts';

export type Part = { name: string; value: string } | { name: string; file: Uint8Array; filename: string; type: string };

export interface Case {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  headers: Record<string, string>;
  /** A JSON value (sent as JSON), raw text, or multipart parts. */
  body?: { json: unknown } | { raw: string | Uint8Array } | { parts: Part[] };
  /** Values in id positions (path, id fields): a 2xx with one of A's ids there breaks authorisation. */
  ids: string[];
}

const enc = encodeURIComponent;
const jsonTypes = fc.oneof(
  { weight: 4, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/xml', '', 'multipart/form-data') },
);

/** Any id a client could send: A's, B's, random uuids, not-uuids. */
export function idPools(w: World) {
  const nasty = fc.constantFrom('not-a-uuid', '00000000-0000-0000-0000-000000000000', w.a.mindId.toUpperCase(), `${w.a.mindId} `, '..', '%2e%2e', '*', '1 OR 1=1', 'null');
  const any = fc.oneof(fc.constantFrom(...w.ids(w.a), ...w.ids(w.b)), fc.uuid(), nasty, nastyString(40));
  return {
    any,
    /** Ids B may delete: never B's own mind with its completed snapshot (later properties need it). */
    deletable: any.filter((id) => id !== w.b.mindId),
    mind: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(w.a.mindId, w.b.mindId) }, any),
    snapshot: fc.oneof(fc.constantFrom(w.a.snapshotId, w.b.snapshotId), any),
    /** Snapshot ids B may delete: never its completed one. */
    deletableSnapshot: fc.oneof(fc.constant(w.a.snapshotId), any).filter((id) => id !== w.b.snapshotId),
    twin: fc.oneof(fc.constantFrom(w.a.twinId, w.b.twinId), any),
  };
}

/** The query string of an object of fuzzed values (strings as they are, anything else as JSON). */
function query(q: unknown): string {
  if (!q || typeof q !== 'object') return q === undefined ? '' : `?${enc(String(q))}`;
  const pairs = Object.entries(q).filter(([, v]) => v !== undefined);
  return pairs.length ? `?${pairs.map(([k, v]) => `${enc(k)}=${enc(typeof v === 'string' ? v : JSON.stringify(v))}`).join('&')}` : '';
}

const cursor = fc.oneof(
  fc.tuple(fc.date({ noInvalidDate: true }), fc.uuid()).map(([d, id]) => Buffer.from(`${d.toISOString()}|${id}`).toString('base64url')),
  fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
  nastyString(80),
);
const pageQuery = fc.oneof(valid(PageQuery, { cursor }), nearValid(PageQuery, { cursor }), fc.dictionary(nastyString(10), nastyString(20)));

/** UTC days near and far (valid, impossible, reversed or over-long windows), or anything. */
const usageDay = fc.option(
  fc.oneof(
    fc.date({ min: new Date('1900-01-01'), max: new Date('2300-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    fc.tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 })).map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
  ),
  { nil: undefined },
);
/** The access log's window: days and date-times, valid or not, or anything. */
const auditTime = fc.option(
  fc.oneof(usageDay, fc.date({ min: new Date('1900-01-01'), max: new Date('2300-01-01'), noInvalidDate: true }).map((d) => d.toISOString()), fc.constantFrom('2026-01-01T00:00:00+05:30', '2026-13-01T00:00:00Z', 'yesterday')),
  { nil: undefined },
);
const usageQuery = fc.oneof(valid(UsageQuery, { from: usageDay, to: usageDay }), nearValid(UsageQuery, { from: usageDay, to: usageDay }), fc.dictionary(nastyString(10), nastyString(20)));

const jsonBody = <T>(good: Arbitrary<T>, near: Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 2, arbitrary: good.map((json) => ({ json })) },
    { weight: 2, arbitrary: near.map((json) => ({ json })) },
    { weight: 1, arbitrary: invalidJson.map((raw) => ({ raw })) },
  );

export function cases(w: World): Record<string, Arbitrary<Case>> {
  const ids = idPools(w);
  const auth = { authorization: `Bearer ${w.b.apiKey}` };
  const withType = (body: Case['body'], type: string): Record<string, string> => (body && 'json' in body ? (type ? { 'content-type': type } : {}) : { 'content-type': type || 'application/json' });

  const vtt = teamsVtt(sampleInterview().slice(0, 4));
  const file = fc.oneof(
    fc.constant(new TextEncoder().encode(vtt)),
    fc.uint8Array({ maxLength: 512 }),
    fc.constantFrom(new Uint8Array(), new TextEncoder().encode('WEBVTT\n\n'), new TextEncoder().encode('%PDF-1.7\n'), Uint8Array.from([0x50, 0x4b, 3, 4])),
  );
  const filePart = fc.record({ file, filename: nastyString(30), type: fc.constantFrom('text/vtt', 'application/pdf', '', 'text/html') });
  const field = (name: string, value: Arbitrary<string>) => value.map((v) => ({ name, value: v }));
  const parts = fc
    .tuple(
      fc.option(field('artifactId', fc.oneof(ids.any, fc.constant(w.b.pendingArtifactId), fc.constant('')))),
      fc.option(field('digitalTwinId', fc.oneof(ids.any, fc.constant(w.b.twinId)))),
      fc.option(field('speaker', nastyString(300))),
      fc.option(filePart.map((f) => ({ name: 'file', ...f }))),
      fc.array(
        fc.oneof(
          fc.tuple(fc.constantFrom('status', 'id', 'accountId', 'mindId'), ids.any).map(([name, value]) => ({ name, value })),
          filePart.map((f) => ({ name: 'other', ...f })),
        ),
        { maxLength: 2 },
      ),
    )
    .map(([a, t, s, f, extra]) => [a, t, s, f, ...extra].filter((p) => p !== null) as Part[]);

  const goodParts = fc
    .tuple(fc.option(field('speaker', nastyString(100))), fc.option(fc.constant({ name: 'digitalTwinId', value: w.b.twinId })))
    .map(([sp, tw]) => [sp, tw, { name: 'file', file: new TextEncoder().encode(vtt), filename: 'good.vtt', type: 'text/vtt' }].filter((p) => p !== null) as Part[]);
  const simulationIds = fc.oneof(fc.constantFrom(w.a.simulationId, w.b.simulationId), ids.any);
  const simulateIds = { mindId: ids.mind, conversationId: simulationIds };
  const panelIds = fc.oneof(fc.constantFrom(w.a.panelId, w.b.panelId), ids.any);
  const panelBody = { mindIds: fc.array(ids.mind, { minLength: 1, maxLength: 3 }) };
  const idsIn = (body: Case['body'], key: string): string[] => {
    const v = body && 'json' in body && body.json && typeof body.json === 'object' ? (body.json as Record<string, unknown>)[key] : undefined;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  };
  const flag = fc.oneof({ weight: 3, arbitrary: fc.constantFrom('true', 'false', '1', '0') }, { weight: 1, arbitrary: nastyString(8) });
  const detailsQuery = fc.option(fc.record({ includeTranscript: flag, includePsychometrics: flag }, { requiredKeys: [] }), { nil: undefined });
  /** A request on B's own mind and snapshot, often: the route's success path is reached, not only its 404s. */
  const ownOrAny = fc.oneof({ weight: 1, arbitrary: fc.constant([w.b.mindId, w.b.snapshotId] as [string, string]) }, { weight: 2, arbitrary: fc.tuple(ids.mind, ids.snapshot) });
  const ofSnapshot = (suffix: string, method: Case['method'] = 'GET') =>
    ownOrAny.map(([m, id]): Case => ({ method, url: `${API}/minds/${enc(m)}/snapshots/${enc(id)}${suffix}`, headers: auth, ids: [m, id] }));
  const ofMind = (suffix: string) => ids.mind.map((id): Case => ({ method: 'GET', url: `${API}/minds/${enc(id)}${suffix}`, headers: auth, ids: [id] }));
  const twinBody = jsonBody(valid(TwinBody), nearValid(TwinBody));
  const linkBody = fc.oneof(
    { weight: 1, arbitrary: fc.constant({ json: { digitalTwinId: w.b.twinId } as unknown }) },
    { weight: 2, arbitrary: jsonBody(valid(LinkBody, { digitalTwinId: ids.twin }), nearValid(LinkBody, { digitalTwinId: ids.twin })) },
  );
  const bodyIds = (body: Case['body'], field: string) =>
    body && 'json' in body && body.json && typeof body.json === 'object' ? [String((body.json as Record<string, unknown>)[field])] : [];

  return {
    'POST /api/public/v1/minds': fc.tuple(jsonBody(valid(CreateMindBody), nearValid(CreateMindBody)), jsonTypes).map(([body, type]) => ({
      method: 'POST', url: `${API}/minds`, headers: { ...auth, ...withType(body, type) }, body, ids: [],
    })),
    'GET /api/public/v1/minds': fc
      .oneof(pageQuery, valid(MindsQuery, { cursor }), nearValid(MindsQuery, { cursor }))
      .map((q) => ({ method: 'GET', url: `${API}/minds${query(q)}`, headers: auth, ids: [] })),
    'GET /api/public/v1/minds/:mindId': ids.any.map((id) => ({ method: 'GET', url: `${API}/minds/${enc(id)}`, headers: auth, ids: [id] })),
    'PATCH /api/public/v1/minds/:mindId': fc.tuple(ids.mind, jsonBody(valid(UpdateMindBody), nearValid(UpdateMindBody)), jsonTypes).map(([id, body, type]) => ({
      method: 'PATCH', url: `${API}/minds/${enc(id)}`, headers: { ...auth, ...withType(body, type) }, body, ids: [id],
    })),
    'DELETE /api/public/v1/minds/:mindId': ids.deletable.map((id) => ({ method: 'DELETE', url: `${API}/minds/${enc(id)}`, headers: auth, ids: [id] })),
    ...tagCases(w, ids, auth),
    'GET /api/public/v1/minds/:mindId/signed-url': fc
      .tuple(ids.mind, fc.oneof(valid(SignedUrlQuery), nearValid(SignedUrlQuery), fc.record({ fileName: nastyString(600), contentType: nastyString(300) })))
      .map(([id, q]) => ({ method: 'GET', url: `${API}/minds/${enc(id)}/signed-url${query(q)}`, headers: auth, ids: [id] })),
    'POST /api/public/v1/minds/:mindId/snapshots': fc
      .oneof(
        { weight: 1, arbitrary: fc.tuple(fc.constant(w.b.mindId), goodParts.map((p) => ({ parts: p }))) },
        { weight: 3, arbitrary: fc.tuple(ids.mind, parts.map((p) => ({ parts: p }))) },
        { weight: 1, arbitrary: fc.tuple(ids.mind, fc.jsonValue().map((json) => ({ json }))) },
      )
      .map(([id, body]): Case => ({
        method: 'POST', url: `${API}/minds/${enc(id)}/snapshots`, headers: auth, body,
        ids: [id, ...('parts' in body ? body.parts.filter((p) => 'value' in p && /^(artifactId|digitalTwinId)$/.test(p.name)).map((p) => (p as { value: string }).value) : [])],
      })),
    'GET /api/public/v1/minds/:mindId/snapshots': fc.tuple(ids.mind, pageQuery).map(([id, q]) => ({
      method: 'GET', url: `${API}/minds/${enc(id)}/snapshots${query(q)}`, headers: auth, ids: [id],
    })),
    'GET /api/public/v1/minds/:mindId/snapshots/:snapshotId/status': ofSnapshot('/status'),
    'GET /api/public/v1/minds/:mindId/snapshots/:snapshotId': fc.tuple(ofSnapshot(''), detailsQuery).map(([c, q]) => ({ ...c, url: `${c.url}${query(q)}` })),
    'DELETE /api/public/v1/minds/:mindId/snapshots/:snapshotId': fc.tuple(ids.mind, ids.deletableSnapshot).map(([m, id]): Case => ({
      method: 'DELETE', url: `${API}/minds/${enc(m)}/snapshots/${enc(id)}`, headers: auth, ids: [m, id],
    })),
    'GET /api/public/v1/minds/:mindId/snapshots/:snapshotId/psychometrics': ofSnapshot('/psychometrics'),
    'GET /api/public/v1/minds/:mindId/snapshots/:snapshotId/topics': ofSnapshot('/topics'),
    'GET /api/public/v1/minds/:mindId/psychometrics': ofMind('/psychometrics'),
    'GET /api/public/v1/minds/:mindId/topics': ofMind('/topics'),
    'GET /api/public/v1/minds/:mindId/export': ofMind('/export'),
    'GET /api/public/v1/minds/:mindId/digital-twins': ofMind('/digital-twins'),
    'POST /api/public/v1/minds/:mindId/digital-twins': fc.tuple(ids.mind, twinBody, jsonTypes).map(([id, body, type]): Case => ({
      method: 'POST', url: `${API}/minds/${enc(id)}/digital-twins`, headers: { ...auth, ...withType(body, type) }, body, ids: [id],
    })),
    'PATCH /api/public/v1/minds/:mindId/digital-twins/:twinId': fc
      .tuple(fc.oneof(fc.constant([w.b.mindId, w.b.twinId] as [string, string]), fc.tuple(ids.mind, ids.twin)), twinBody, jsonTypes)
      .map(([[m, t], body, type]): Case => ({
        method: 'PATCH', url: `${API}/minds/${enc(m)}/digital-twins/${enc(t)}`, headers: { ...auth, ...withType(body, type) }, body, ids: [m, t],
      })),
    'POST /api/public/v1/simulate': fc.tuple(jsonBody(valid(SimulateBody, simulateIds), nearValid(SimulateBody, simulateIds)), jsonTypes).map(([body, type]) => ({
      method: 'POST', url: `${API}/simulate`, headers: { ...auth, ...withType(body, type) }, body,
      ids: 'json' in body && body.json && typeof body.json === 'object'
        ? [(body.json as { mindId?: unknown }).mindId, (body.json as { conversationId?: unknown }).conversationId].filter((v) => v !== undefined).map(String)
        : [],
    })),
    'GET /api/public/v1/simulations': fc
      .oneof(valid(SimulationsQuery, { mindId: ids.mind }), nearValid(SimulationsQuery, { mindId: ids.mind }), fc.dictionary(nastyString(10), nastyString(20)))
      .map((q) => ({ method: 'GET', url: `${API}/simulations${query(q)}`, headers: auth, ids: typeof (q as { mindId?: unknown }).mindId === 'string' ? [(q as { mindId: string }).mindId] : [] })),
    'GET /api/public/v1/simulations/:simulationId': simulationIds.map((id) => ({ method: 'GET', url: `${API}/simulations/${enc(id)}`, headers: auth, ids: [id] })),
    'DELETE /api/public/v1/simulations/:simulationId': simulationIds
      .filter((id) => id !== w.b.simulationId)
      .map((id) => ({ method: 'DELETE', url: `${API}/simulations/${enc(id)}`, headers: auth, ids: [id] })),
    ...correctionCases(w, ids, simulationIds, auth),
    ...reviewLinkCases(w, ids, auth),
    'POST /api/public/v1/panels': fc
      .tuple(
        fc.oneof(
          // B's own mind and questions that fit their types: the success path is reached, not only the 400s.
          { weight: 1, arbitrary: fc.constant({ json: { mindIds: [w.b.mindId], questions: [{ text: 'Do you run?', type: 'single', options: ['Yes', 'No'] }, { text: 'Why?', type: 'open' }] } as unknown }) },
          { weight: 4, arbitrary: jsonBody(valid(CreatePanelBody, panelBody), nearValid(CreatePanelBody, panelBody)) },
        ),
        jsonTypes,
      )
      .map(([body, type]) => ({
      method: 'POST', url: `${API}/panels`, headers: { ...auth, ...withType(body, type) }, body, ids: idsIn(body, 'mindIds'),
    })),
    'GET /api/public/v1/panels': fc
      .oneof(valid(PanelsQuery), nearValid(PanelsQuery), fc.dictionary(nastyString(10), nastyString(20)))
      .map((q) => ({ method: 'GET', url: `${API}/panels${query(q)}`, headers: auth, ids: [] })),
    'GET /api/public/v1/panels/:panelId': panelIds.map((id) => ({ method: 'GET', url: `${API}/panels/${enc(id)}`, headers: auth, ids: [id] })),
    'GET /api/public/v1/panels/:panelId/answers': fc
      .tuple(panelIds, fc.oneof(valid(PanelAnswersQuery, { mindId: ids.mind }), nearValid(PanelAnswersQuery, { mindId: ids.mind }), fc.dictionary(nastyString(10), nastyString(20))))
      .map(([id, q]) => ({ method: 'GET', url: `${API}/panels/${enc(id)}/answers${query(q)}`, headers: auth, ids: [id] })),
    'POST /api/public/v1/panels/:panelId/cancel': panelIds.map((id) => ({ method: 'POST', url: `${API}/panels/${enc(id)}/cancel`, headers: auth, ids: [id] })),
    'DELETE /api/public/v1/panels/:panelId': panelIds
      .filter((id) => id !== w.b.panelId)
      .map((id) => ({ method: 'DELETE', url: `${API}/panels/${enc(id)}`, headers: auth, ids: [id] })),
    'GET /api/public/v1/minds/:mindId/profile': ids.mind.map((id) => ({ method: 'GET', url: `${API}/minds/${enc(id)}/profile`, headers: auth, ids: [id] })),
    'GET /api/public/v1/models': pageQuery.map((q) => ({ method: 'GET', url: `${API}/models${query(q)}`, headers: auth, ids: [] })),
    'GET /api/public/v1/webhook-events': pageQuery.map((q) => ({ method: 'GET', url: `${API}/webhook-events${query(q)}`, headers: auth, ids: [] })),
    'GET /api/public/v1/usage': usageQuery.map((q) => ({ method: 'GET', url: `${API}/usage${query(q)}`, headers: auth, ids: [] })),
    'GET /api/public/v1/account/privacy': pageQuery.map((q) => ({ method: 'GET', url: `${API}/account/privacy${query(q)}`, headers: auth, ids: [] })),
    // requireConsent stays off for B: turned on, B's simulations and panels would answer 403 to the cases after it.
    'PUT /api/public/v1/account/privacy': fc
      .tuple(jsonBody(valid(AccountPrivacyUpdate, { requireConsent: fc.constant(false) }), nearValid(AccountPrivacyUpdate, { requireConsent: fc.constant(false) })), jsonTypes)
      .map(([body, type]) => ({ method: 'PUT', url: `${API}/account/privacy`, headers: { ...auth, ...withType(body, type) }, body, ids: [] })),
    'GET /api/public/v1/audit': fc
      .oneof(...[valid, nearValid].map((make) => make(AuditQuery, { mindId: ids.mind, cursor, from: auditTime, to: auditTime })), fc.dictionary(nastyString(10), nastyString(20)))
      .map((q) => ({ method: 'GET', url: `${API}/audit${query(q)}`, headers: auth, ids: typeof (q as { mindId?: unknown }).mindId === 'string' ? [(q as { mindId: string }).mindId] : [] })),
    'PUT /uploads/:artifactId': uploadCase(w, ids.any),
    'POST /webhook': webhookCase(w),
    'POST /mcp': mcpCase(w, ids.any),
    // Last, unlink then link: the cases above need B's snapshot linked; the link cases put it back.
    'POST /api/public/v1/minds/:mindId/snapshots/:snapshotId/unlink': ofSnapshot('/unlink', 'POST'),
    'POST /api/public/v1/minds/:mindId/snapshots/:snapshotId/link': fc.tuple(ownOrAny, linkBody, jsonTypes).map(([[m, id], body, type]): Case => ({
      method: 'POST', url: `${API}/minds/${enc(m)}/snapshots/${enc(id)}/link`, headers: { ...auth, ...withType(body, type) }, body, ids: [m, id, ...bodyIds(body, 'digitalTwinId')],
    })),
  };
}

/** Search, PUT, and tags: names of A's tags and ids of A's tags mixed in. */
function tagCases(w: World, ids: ReturnType<typeof idPools>, auth: Record<string, string>): Record<string, Arbitrary<Case>> {
  const tagId = fc.oneof(fc.constantFrom(w.a.tagId, w.b.tagId), ids.any);
  const names = { tagNames: fc.array(fc.oneof(fc.constantFrom(`Tag of A`, 'Fuzzed', 'fuzzed', 'FUZZED'), nastyString(40)), { maxLength: 6 }) };
  const body = <T>(good: Arbitrary<T>, near: Arbitrary<unknown>) =>
    fc.tuple(jsonBody(good, near), jsonTypes).map(([b, type]) => ({ body: b, headers: { ...auth, ...(b && 'json' in b ? (type ? { 'content-type': type } : {}) : { 'content-type': type || 'application/json' }) } }));
  return {
    'GET /api/public/v1/minds/search': fc
      .oneof(valid(SearchQuery), nearValid(SearchQuery), fc.record({ query: fc.constantFrom('%', '_', '\\', 'mind', 'MIND', 'tag of a', "'") }))
      .map((q) => ({ method: 'GET', url: `${API}/minds/search${query(q)}`, headers: auth, ids: [] })),
    'PUT /api/public/v1/minds/:mindId': fc.tuple(ids.mind, body(valid(PutMindBody), nearValid(PutMindBody))).map(([id, b]) => ({
      method: 'PUT', url: `${API}/minds/${enc(id)}`, ...b, ids: [id],
    })),
    'PUT /api/public/v1/minds/:mindId/tags': fc.tuple(ids.mind, body(valid(SetTagsBody, names), nearValid(SetTagsBody, names))).map(([id, b]) => ({
      method: 'PUT', url: `${API}/minds/${enc(id)}/tags`, ...b, ids: [id],
    })),
    'GET /api/public/v1/tags': pageQuery.map((q) => ({ method: 'GET', url: `${API}/tags${query(q)}`, headers: auth, ids: [] })),
    'PUT /api/public/v1/tags/:tagId': fc.tuple(tagId, body(valid(RenameTagBody), nearValid(RenameTagBody))).map(([id, b]) => ({
      method: 'PUT', url: `${API}/tags/${enc(id)}`, ...b, ids: [id],
    })),
    // Never B's own tag: later checks need it on B's mind.
    'DELETE /api/public/v1/tags/:tagId': fc.oneof(fc.constant(w.a.tagId), ids.any.filter((id) => id !== w.b.tagId)).map((id) => ({
      method: 'DELETE', url: `${API}/tags/${enc(id)}`, headers: auth, ids: [id],
    })),
  };
}

/** Signed-URL uploads with a signature or expiry that is never the valid pair for the artifact. */
function uploadCase(w: World, anyId: Arbitrary<string>): Arbitrary<Case> {
  const b = new URL(w.b.signedUrl).searchParams;
  const a = new URL(w.a.signedUrl).searchParams;
  const sig = b.get('signature') ?? '';
  const flip = (s: string, i: number) => s.slice(0, i % s.length) + (s[i % s.length] === 'a' ? 'b' : 'a') + s.slice((i % s.length) + 1);
  const tampered = fc.oneof(
    fc.nat().map((i) => ({ artifact: w.b.pendingArtifactId, expires: b.get('expires') ?? '', signature: flip(sig, i) })),
    fc.integer({ min: -1e6, max: 1e6 }).filter((d) => d !== 0).map((d) => ({ artifact: w.b.pendingArtifactId, expires: String(Number(b.get('expires')) + d), signature: sig })),
    fc.constant({ artifact: w.b.pendingArtifactId, expires: a.get('expires') ?? '', signature: a.get('signature') ?? '' }),
    fc.constant({ artifact: w.a.pendingArtifactId, expires: b.get('expires') ?? '', signature: sig }),
    fc.record({ artifact: anyId, expires: nastyString(20), signature: nastyString(80) }),
  );
  return fc.tuple(tampered, fc.uint8Array({ maxLength: 256 }), fc.constantFrom('text/vtt', 'application/octet-stream', '')).map(([t, bytes, type]) => ({
    method: 'PUT',
    url: `/uploads/${enc(t.artifact)}?expires=${enc(t.expires)}&signature=${enc(t.signature)}`,
    headers: (type ? { 'content-type': type } : {}) as Record<string, string>,
    body: { raw: bytes },
    ids: [t.artifact],
  }));
}

function webhookCase(w: World): Arbitrary<Case> {
  const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;
  const authorization = fc.oneof(
    { weight: 6, arbitrary: fc.constant(basic(w.b.webhook.username, w.b.webhook.password)) },
    fc.constant(basic(w.a.webhook.username, w.b.webhook.password)),
    nastyString(20).map((p) => basic(w.a.webhook.username, p)),
    nastyString(60).map((s) => `Basic ${s}`),
    fc.constant(`Bearer ${w.b.apiKey}`),
    nastyString(60),
  );
  const body = fc.oneof(fc.jsonValue({ maxDepth: 4 }).map((json) => ({ json })), invalidJson.map((raw) => ({ raw })), deepJson.map((raw) => ({ raw })));
  return fc.tuple(authorization, body, jsonTypes).map(([authz, b, type]) => ({
    method: 'POST', url: '/webhook', headers: { authorization: authz, ...(type ? { 'content-type': type } : {}) }, body: b, ids: [],
  }));
}

function mcpCase(w: World, anyId: Arbitrary<string>): Arbitrary<Case> {
  const args = fc.record(
    {
      mindId: fc.oneof(fc.constantFrom(w.a.mindId, w.b.mindId), anyId),
      snapshotId: fc.oneof(fc.constantFrom(w.a.snapshotId, w.b.snapshotId), anyId),
      simulationId: fc.oneof(fc.constantFrom(w.a.simulationId, w.b.simulationId), anyId),
      conversationId: fc.oneof(fc.constantFrom(w.a.simulationId, w.b.simulationId), anyId),
      panelId: fc.oneof(fc.constantFrom(w.a.panelId, w.b.panelId), anyId),
      includeAnswers: fc.oneof(fc.constantFrom(0, 3, 100, 101, -1), nastyString(5)),
      scenario: fc.oneof(fc.record({ message: nastyString(200) }), nastyString(20)),
      selectedSimulationModel: fc.oneof(fc.constantFrom('mind-reasoner-standard', 'mind-reasoner-pro'), nastyString(20)),
      offset: fc.oneof(fc.integer({ min: -5, max: 300 }), nastyString(5)),
      digitalTwinId: fc.oneof(fc.constant(w.a.twinId), anyId),
      name: nastyString(50),
      message: nastyString(200),
      limit: fc.oneof(fc.integer({ min: -5, max: 300 }), nastyString(5)),
      waitSeconds: fc.constant(0),
      query: fc.oneof(fc.constantFrom('Mind of A', 'tag of a', '%', '_'), nastyString(30)),
      tags: fc.oneof(fc.constant(['Tag of A']), fc.array(nastyString(20), { maxLength: 3 }), nastyString(10)),
      fileName: nastyString(30),
      text: fc.oneof(fc.constant(teamsVtt(sampleInterview().slice(0, 2))), nastyString(100)),
      artifactId: fc.oneof(fc.constantFrom(w.a.artifactId, w.a.pendingArtifactId, w.b.pendingArtifactId), anyId),
      signedUrl: fc.oneof(fc.constantFrom(w.a.signedUrl, w.b.signedUrl), nastyString(100)),
      filePath: fc.oneof(fc.constantFrom('/etc/passwd', '/proc/self/environ', 'interview.vtt'), nastyString(60)),
      contentType: fc.oneof(fc.constantFrom('text/vtt', 'application/pdf'), nastyString(30)),
    },
    { requiredKeys: [] },
  );
  const tools = fc.constantFrom(
    'create_mind', 'list_minds', 'get_all_minds', 'search_minds', 'upload_transcript', 'get_snapshot_status', 'simulate', 'get_profile',
    'get_signed_upload_url', 'upload_file_to_signed_url', 'create_snapshot', 'list_simulations', 'get_simulation', 'get_panel', 'nope',
  );
  const call = fc.tuple(tools, args).map(([name, a]) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: a } }));
  const body = fc.oneof({ weight: 4, arbitrary: call.map((json) => ({ json })) }, { weight: 1, arbitrary: invalidJson.map((raw) => ({ raw })) });
  const idKeys: Record<string, string[]> = {
    upload_transcript: ['mindId', 'digitalTwinId'],
    get_snapshot_status: ['mindId', 'snapshotId'],
    simulate: ['mindId', 'conversationId'],
    get_profile: ['mindId'],
    get_signed_upload_url: ['mindId'],
    create_snapshot: ['mindId', 'digitalTwinId', 'artifactId'],
    upload_file_to_signed_url: ['signedUrl'],
    list_simulations: ['mindId'],
    get_simulation: ['simulationId'],
    // run_panel is not fuzzed: a well-formed call waits up to 45 s for a panel no worker runs here (test/mcp.panels.test.ts covers it).
    get_panel: ['panelId'],
  };
  return body.map((b) => {
    const params = 'json' in b ? (b.json as { params: { name: string; arguments: Record<string, unknown> } }).params : { name: '', arguments: {} };
    return {
      method: 'POST', url: '/mcp', body: b,
      headers: { authorization: `Bearer ${w.b.apiKey}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      ids: (idKeys[params.name] ?? []).map((k) => params.arguments[k]).filter((v): v is string => typeof v === 'string'),
    };
  });
}

/** The review links' routes (issue 32): B's own mind reaches the success path; B never revokes its own link (later properties use it). */
function reviewLinkCases(w: World, ids: ReturnType<typeof idPools>, auth: Record<string, string>): Record<string, Arbitrary<Case>> {
  const linkIds = fc.oneof(fc.constant(w.a.reviewLinkId), ids.any).filter((id) => id !== w.b.reviewLinkId);
  const create = jsonBody(valid(CreateReviewLinkBody), nearValid(CreateReviewLinkBody));
  return {
    'POST /api/public/v1/minds/:mindId/review-links': fc.tuple(ids.mind, create).map(([id, body]): Case => ({
      method: 'POST', url: `${API}/minds/${enc(id)}/review-links`, headers: { ...auth, 'content-type': 'application/json' }, body, ids: [id],
    })),
    'GET /api/public/v1/minds/:mindId/review-links': ids.mind.map((id) => ({ method: 'GET', url: `${API}/minds/${enc(id)}/review-links`, headers: auth, ids: [id] })),
    'DELETE /api/public/v1/minds/:mindId/review-links/:linkId': fc.tuple(ids.mind, linkIds).map(([m, id]) => ({
      method: 'DELETE', url: `${API}/minds/${enc(m)}/review-links/${enc(id)}`, headers: auth, ids: [m, id],
    })),
  };
}

/** The corrections' routes (issue 32): B's own mind and simulation reach the success path, A's ids must answer 404. */
function correctionCases(w: World, ids: ReturnType<typeof idPools>, simulationIds: Arbitrary<string>, auth: Record<string, string>): Record<string, Arbitrary<Case>> {
  const correctionIds = fc.oneof(fc.constantFrom(w.a.correctionId, w.b.correctionId), ids.any);
  const create = jsonBody(valid(CreateCorrection, { simulationId: simulationIds }), nearValid(CreateCorrection, { simulationId: simulationIds }));
  const fromSimulation = jsonBody(valid(CorrectSimulation), nearValid(CorrectSimulation));
  const bodyIds = (body: Case['body']): string[] => {
    const v = body && 'json' in body && body.json && typeof body.json === 'object' ? (body.json as Record<string, unknown>).simulationId : undefined;
    return typeof v === 'string' ? [v] : [];
  };
  return {
    'POST /api/public/v1/minds/:mindId/corrections': fc.tuple(ids.mind, create).map(([id, body]): Case => ({
      method: 'POST', url: `${API}/minds/${enc(id)}/corrections`, headers: { ...auth, 'content-type': 'application/json' }, body, ids: [id, ...bodyIds(body)],
    })),
    'GET /api/public/v1/minds/:mindId/corrections': fc.tuple(ids.mind, valid(PageQuery)).map(([id, q]) => ({
      method: 'GET', url: `${API}/minds/${enc(id)}/corrections${query(q)}`, headers: auth, ids: [id],
    })),
    'GET /api/public/v1/minds/:mindId/corrections/:correctionId': fc.tuple(ids.mind, correctionIds).map(([m, id]) => ({
      method: 'GET', url: `${API}/minds/${enc(m)}/corrections/${enc(id)}`, headers: auth, ids: [m, id],
    })),
    'DELETE /api/public/v1/minds/:mindId/corrections/:correctionId': fc.tuple(ids.mind, correctionIds.filter((id) => id !== w.b.correctionId)).map(([m, id]) => ({
      method: 'DELETE', url: `${API}/minds/${enc(m)}/corrections/${enc(id)}`, headers: auth, ids: [m, id],
    })),
    'POST /api/public/v1/simulations/:simulationId/corrections': fc.tuple(simulationIds, fromSimulation).map(([id, body]): Case => ({
      method: 'POST', url: `${API}/simulations/${enc(id)}/corrections`, headers: { ...auth, 'content-type': 'application/json' }, body, ids: [id],
    })),
  };
}
