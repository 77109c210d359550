/**
 * Dashboard requests for the fuzz test: B's logged-in session sends its JSON endpoints (the upload
 * script's), its forms and its pages fuzzed bodies, queries and path ids, A's ids among them.
 */
import fc, { type Arbitrary } from 'fast-check';
import type { Session, World } from './abuse.ts';
import { idPools, type Case } from './fuzz-cases.ts';
import { invalidJson, nastyString } from './zod-arbitrary.ts';

const enc = encodeURIComponent;

export function webCases(w: World, session: Session): Record<string, Arbitrary<Case>> {
  const ids = idPools(w);
  const base = { cookie: session.cookie, 'x-csrf-token': session.csrf, accept: 'application/json' };
  const json = (url: (id: string) => string, body: Arbitrary<Record<string, unknown>>, idFields: string[] = []) =>
    fc.tuple(ids.mind, fc.oneof(body.map((j) => ({ json: j as unknown })), invalidJson.map((raw) => ({ raw })))).map(([id, b]): Case => ({
      method: 'POST',
      url: url(enc(id)),
      headers: { ...base, 'content-type': 'application/json' },
      body: b,
      ids: [id, ...('json' in b ? idFields.map((f) => (b.json as Record<string, unknown>)[f]).filter((v): v is string => typeof v === 'string') : [])],
    }));
  const text = (n = 60) => fc.oneof(nastyString(n), fc.jsonValue({ maxDepth: 1 }));
  const form = (url: Arbitrary<{ url: string; ids: string[] }>, fields: Arbitrary<Record<string, string>>) =>
    fc.tuple(url, fields).map(([u, f]): Case => ({
      method: 'POST',
      url: u.url,
      headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: { raw: new URLSearchParams({ _csrf: session.csrf, ...f }).toString() },
      ids: u.ids,
    }));
  const page = (url: (id: string) => string) => ids.any.map((id): Case => ({ method: 'GET', url: url(enc(id)), headers: { cookie: session.cookie }, ids: [id] }));
  const str = (n: number) => nastyString(n).map(String);
  const panelIds = fc.oneof(fc.constantFrom(w.a.panelId, w.b.panelId), ids.any);
  const panelPage = (url: (id: string) => string) => panelIds.map((id): Case => ({ method: 'GET', url: url(enc(id)), headers: { cookie: session.cookie }, ids: [id] }));

  return {
    'POST /minds/:mindId/uploads': json((id) => `/minds/${id}/uploads`, fc.record({ fileName: text(300), contentType: text(300) }, { requiredKeys: [] })),
    'POST /minds/:mindId/snapshots': json(
      (id) => `/minds/${id}/snapshots`,
      fc.record({ artifactId: fc.oneof(ids.any, fc.constant(w.b.pendingArtifactId)), speaker: text(300) }, { requiredKeys: [] }),
      ['artifactId'],
    ),
    'POST /minds/:mindId/simulate': json(
      (id) => `/minds/${id}/simulate`,
      fc.record(
        { message: text(400), model: fc.oneof(fc.constantFrom('mind-reasoner-standard', 'mind-reasoner-pro'), text(30)), conversationId: fc.oneof(fc.constantFrom(w.a.simulationId, w.b.simulationId, ''), ids.any) },
        { requiredKeys: ['message'] },
      ),
      ['conversationId'],
    ),
    'POST /minds': form(fc.constant({ url: '/minds', ids: [] }), fc.record({ name: str(300) }, { requiredKeys: [] })),
    'POST /minds/:mindId/tags': form(ids.mind.map((id) => ({ url: `/minds/${enc(id)}/tags`, ids: [id] })), fc.record({ tags: fc.oneof(str(300), fc.constantFrom('', 'Fuzzed, fuzzed, FUZZED', `Tag of A, ${','.repeat(60)}`)) }, { requiredKeys: [] })),
    'POST /minds/:mindId/rename': form(ids.mind.map((id) => ({ url: `/minds/${enc(id)}/rename`, ids: [id] })), fc.record({ name: str(300) }, { requiredKeys: [] })),
    'POST /minds/:mindId/consent': form(
      ids.mind.map((id) => ({ url: `/minds/${enc(id)}/consent`, ids: [id] })),
      fc.record(
        {
          status: fc.oneof(fc.constantFrom('granted', 'unknown', 'withdrawn'), str(20)),
          subject: str(300),
          obtainedAt: fc.oneof(fc.constantFrom('2026-01-05', '', '2026-02-30', '2026-01-05T10:00:00+02:00'), str(40)),
          method: fc.oneof(fc.constantFrom('written', 'verbal', 'contract', 'public-record'), str(20)),
          scope: fc.oneof(fc.constantFrom('simulate', 'panels', 'llm', ''), str(20)),
          expiresAt: fc.oneof(fc.constantFrom('', '2030-01-01', '2000-01-01'), str(40)),
          evidenceArtifactId: fc.oneof(fc.constantFrom('', w.a.pendingArtifactId), ids.any),
        },
        { requiredKeys: [] },
      ),
    ),
    'POST /minds/:mindId/redaction': form(
      ids.mind.map((id) => ({ url: `/minds/${enc(id)}/redaction`, ids: [id] })),
      fc.record({ redaction: fc.oneof(fc.constantFrom('off', 'outbound', 'stored', ''), str(20)) }, { requiredKeys: [] }),
    ),
    'POST /minds/:mindId/corrections': form(
      ids.mind.map((id) => ({ url: `/minds/${enc(id)}/corrections`, ids: [id] })),
      fc.record({ scenario: str(300), answer: str(300), note: str(60), simulationId: fc.oneof(fc.constantFrom(w.a.simulationId, w.b.simulationId, ''), ids.any) }, { requiredKeys: [] }),
    ),
    'POST /minds/:mindId/corrections/:correctionId/delete': form(
      fc.tuple(ids.mind, fc.oneof(fc.constant(w.a.correctionId), ids.any).filter((id) => id !== w.b.correctionId)).map(([m, id]) => ({ url: `/minds/${enc(m)}/corrections/${enc(id)}/delete`, ids: [m, id] })),
      fc.constant({}),
    ),
    'POST /minds/:mindId/review-links': form(
      ids.mind.map((id) => ({ url: `/minds/${enc(id)}/review-links`, ids: [id] })),
      fc.record({ expiresInDays: fc.oneof(fc.constantFrom('1', '14', '90', '0', '91', '1.5', ''), str(12)) }, { requiredKeys: [] }),
    ),
    'POST /minds/:mindId/review-links/:linkId/revoke': form(
      fc.tuple(ids.mind, fc.oneof(fc.constant(w.a.reviewLinkId), ids.any).filter((id) => id !== w.b.reviewLinkId)).map(([m, id]) => ({ url: `/minds/${enc(m)}/review-links/${enc(id)}/revoke`, ids: [m, id] })),
      fc.constant({}),
    ),
    // The person's page: B's own link (a token of A's would rightly show A's mind: the token is the credential), and tokens that open nothing.
    'GET /review/:token': fc
      .oneof(fc.constant(w.b.reviewToken), str(60), fc.constantFrom('A'.repeat(43), `${w.b.reviewToken}x`))
      .map((t): Case => ({ method: 'GET', url: `/review/${enc(t)}`, headers: {}, ids: [] })),
    'POST /review/:token/answers/:simulationId/confirm': form(
      fc.tuple(fc.oneof(fc.constant(w.b.reviewToken), str(60)), fc.oneof(fc.constantFrom(w.a.simulationId, w.b.simulationId), ids.any)).map(([t, id]) => ({ url: `/review/${enc(t)}/answers/${enc(id)}/confirm`, ids: [id] })),
      fc.constant({}),
    ),
    'POST /review/:token/answers/:simulationId/correct': form(
      fc.tuple(fc.oneof(fc.constant(w.b.reviewToken), str(60)), fc.oneof(fc.constantFrom(w.a.simulationId, w.b.simulationId), ids.any)).map(([t, id]) => ({ url: `/review/${enc(t)}/answers/${enc(id)}/correct`, ids: [id] })),
      fc.record({ answer: str(300), note: str(60) }, { requiredKeys: [] }),
    ),
    'POST /minds/:mindId/consent/withdraw': form(ids.deletable.map((id) => ({ url: `/minds/${enc(id)}/consent/withdraw`, ids: [id] })), fc.constant({})),
    'POST /account/privacy': form(
      fc.constant({ url: '/account/privacy', ids: [] }),
      // requireConsent stays off for B (an unticked box): its other cases need its minds usable.
      fc.record({ requireConsent: fc.constantFrom('', 'off'), retentionDays: fc.oneof(fc.constantFrom('', '30', '0', '36501', '1.5', '1e3'), str(12)) }, { requiredKeys: [] }),
    ),
    'POST /minds/:mindId/delete': form(ids.deletable.map((id) => ({ url: `/minds/${enc(id)}/delete`, ids: [id] })), fc.constant({})),
    'POST /minds/:mindId/snapshots/:snapshotId/delete': form(
      fc.tuple(ids.mind, ids.deletableSnapshot).map(([m, id]) => ({ url: `/minds/${enc(m)}/snapshots/${enc(id)}/delete`, ids: [m, id] })),
      fc.constant({}),
    ),
    'POST /keys': form(fc.constant({ url: '/keys', ids: [] }), fc.record({ name: str(200) }, { requiredKeys: [] })),
    'POST /keys/:keyId/revoke': form(ids.any.map((id) => ({ url: `/keys/${enc(id)}/revoke`, ids: [id] })), fc.constant({})),
    'POST /signup': form(fc.constant({ url: '/signup', ids: [] }), fc.record({ email: str(400), password: str(40) }, { requiredKeys: [] })),
    'POST /login': form(fc.constant({ url: '/login', ids: [] }), fc.record({ email: fc.oneof(fc.constant(w.a.email), str(100)), password: str(40), next: str(60) }, { requiredKeys: [] })),
    'GET /minds/:mindId': page((id) => `/minds/${id}`),
    'GET /minds/:mindId/snapshots': page((id) => `/minds/${id}/snapshots`),
    'GET /minds/:mindId/profile': page((id) => `/minds/${id}/profile`),
    'GET /minds/:mindId/export': page((id) => `/minds/${id}/export`),
    'GET /minds/:mindId/audit': page((id) => `/minds/${id}/audit?from=2026-01-01&to=2026-02-30&cursor=${enc('not a cursor')}`),
    'GET /minds/:mindId/delete': page((id) => `/minds/${id}/delete`),
    'GET /minds/:mindId/consent/withdraw': page((id) => `/minds/${id}/consent/withdraw`),
    'GET /minds/:mindId/conversations/:simulationId': fc
      .tuple(ids.mind, fc.oneof(fc.constantFrom(w.a.simulationId, w.b.simulationId), ids.any))
      .map(([m, id]): Case => ({ method: 'GET', url: `/minds/${enc(m)}/conversations/${enc(id)}`, headers: { cookie: session.cookie }, ids: [m, id] })),
    'GET /panels': fc
      .oneof(str(20), fc.constantFrom('1', '2', '0', '-1', '1e9', ''))
      .map((p): Case => ({ method: 'GET', url: `/panels?page=${enc(p)}`, headers: { cookie: session.cookie }, ids: [] })),
    'GET /panels/new': fc.constant({ method: 'GET', url: '/panels/new', headers: { cookie: session.cookie }, ids: [] }),
    'POST /panels': fc
      .tuple(
        fc.oneof(fc.constantFrom(w.a.mindId, w.b.mindId), ids.any),
        fc.record(
          {
            name: str(300),
            tags: fc.oneof(str(200), fc.constantFrom('Tag of A', 'fuzzed', '')),
            questions: fc.oneof(str(300), fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)), fc.constant('[{"text":"Do you run?","type":"single","options":["Yes","No"]}]')),
            model: fc.oneof(fc.constantFrom('mind-reasoner-standard', 'mind-reasoner-pro'), str(30)),
          },
          { requiredKeys: [] },
        ),
      )
      .map(([mindId, f]): Case => ({
        method: 'POST',
        url: '/panels',
        headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: { raw: new URLSearchParams({ _csrf: session.csrf, mindIds: mindId, ...f }).toString() },
        ids: [mindId],
      })),
    'GET /panels/:panelId': panelPage((id) => `/panels/${id}`),
    'GET /panels/:panelId/live': panelPage((id) => `/panels/${id}/live`),
    'GET /panels/:panelId/delete': panelPage((id) => `/panels/${id}/delete`),
    'GET /panels/:panelId/answers': fc
      .tuple(
        panelIds,
        fc.record({ questionId: fc.oneof(fc.constantFrom('remote', 'coffee'), str(70)), option: fc.oneof(fc.constantFrom('Yes', 'No'), str(210)), value: fc.oneof(fc.constantFrom('2', '1e400', 'NaN', '-0'), str(20)), status: fc.oneof(fc.constantFrom('answered', 'no_evidence'), str(20)), mindId: fc.oneof(fc.constantFrom(w.a.mindId, w.b.mindId), str(40)), page: str(12) }, { requiredKeys: [] }),
      )
      .map(([id, q]): Case => ({ method: 'GET', url: `/panels/${enc(id)}/answers?${new URLSearchParams(q as Record<string, string>).toString()}`, headers: { cookie: session.cookie }, ids: [id] })),
    'POST /panels/:panelId/cancel': form(panelIds.map((id) => ({ url: `/panels/${enc(id)}/cancel`, ids: [id] })), fc.constant({})),
    'POST /panels/:panelId/delete': form(panelIds.filter((id) => id !== w.b.panelId).map((id) => ({ url: `/panels/${enc(id)}/delete`, ids: [id] })), fc.constant({})),
    'GET /minds': fc
      .tuple(str(300), fc.option(fc.oneof(str(120), fc.constantFrom('Tag of A', 'fuzzed'))))
      .map(([c, tag]) => ({ method: 'GET', url: `/minds?cursor=${enc(c)}${tag === null ? '' : `&tag=${enc(tag)}`}`, headers: { cookie: session.cookie }, ids: [] })),
    'GET /usage': fc
      .record({ from: fc.oneof(fc.constantFrom('2026-01-01', '2026-02-30', '1900-01-01', ''), str(20)), to: fc.oneof(fc.constantFrom('2026-12-31', '2025-01-01'), str(20)) }, { requiredKeys: [] })
      .map((q): Case => ({ method: 'GET', url: `/usage?${new URLSearchParams(q as Record<string, string>).toString()}`, headers: { cookie: session.cookie }, ids: [] })),
    'GET /login': fc
      .oneof(str(80), fc.constantFrom('//evil.example', '/\\evil.example', 'https://evil.example/', '/%2F%2Fevil.example', '/\t/evil.example', 'javascript:alert(1)'))
      .map((next) => ({ method: 'GET', url: `/login?next=${enc(next)}`, headers: { cookie: session.cookie }, ids: [] })),
  };
}
