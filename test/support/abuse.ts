/**
 * Two accounts with something of everything (a mind with a completed snapshot, an uploaded and a
 * pending artifact, webhook credentials and an event, a dashboard password), built in-process for
 * the abuse suite (test/abuse.*.test.ts), and the checks every answer must pass.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '../../src/http/schemas.ts';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { inject, multipart, type Answer, type InProcess } from './inproc.ts';
import { waitUntil } from '../../testkit/wait.ts';

export const API = '/api/public/v1';

export interface Party {
  name: 'A' | 'B';
  accountId: string;
  email: string;
  password: string;
  apiKey: string;
  mindId: string;
  twinId: string;
  snapshotId: string;
  /** The artifact the snapshot was made from (uploaded). */
  artifactId: string;
  /** A signed URL requested and never used. */
  pendingArtifactId: string;
  signedUrl: string;
  webhook: { username: string; password: string };
  eventId: string;
  /** A tag on the party's mind (its name is a canary too). */
  tagId: string;
  /** A simulation (conversation) with the mind, made once the snapshot completed. */
  simulationId: string;
  /** A panel of the mind (queued: no worker runs during the walks). */
  panelId: string;
  /** A correction of the mind (issue 32). */
  correctionId: string;
  /** A review link of the mind, and its token (issue 32). */
  reviewLinkId: string;
  reviewToken: string;
  /** A word, a mind name, a webhook payload value and a tag name that only this account's data holds. */
  canaries: string[];
}

export interface World {
  a: Party;
  b: Party;
  /** Every id of the party, for pools of path and body ids. */
  ids(p: Party): string[];
}

const bearer = (p: Party) => ({ authorization: `Bearer ${p.apiKey}` });
export { bearer };

async function makeParty(s: InProcess, name: 'A' | 'B'): Promise<Omit<Party, 'simulationId' | 'panelId' | 'correctionId' | 'reviewLinkId' | 'reviewToken'>> {
  const tag = crypto.randomBytes(4).toString('hex');
  const word = `zq${name.toLowerCase()}${tag}canary`;
  const email = `${name.toLowerCase()}-${tag}@example.com`;
  const password = `pw-${name}-${crypto.randomBytes(8).toString('hex')}`;
  const { accountId, apiKey } = await s.ctx.services.accounts.createAccount(email, 'pro');
  await s.ctx.services.logins.setPassword(accountId, password);
  const p = { apiKey } as Party;
  const mindName = `Mind of ${name} ${tag}`;
  const created = await inject(s.app, { method: 'POST', url: `${API}/minds`, headers: bearer(p), payload: { name: mindName } });
  const mindId = created.json.mind.id as string;
  const twinId = created.json.digitalTwin.id as string;
  const tagName = `Tag of ${name} ${tag}`;
  const tagged = await inject(s.app, { method: 'PUT', url: `${API}/minds/${mindId}/tags`, headers: bearer(p), payload: { tagNames: [tagName] } });

  const turns = sampleInterview();
  turns.push({ speaker: 'Dana Reyes', text: 'Is there a word only you use?' }, { speaker: 'Sam Okafor', text: `I always say ${word} when I start a run.` });
  const signed = (await inject(s.app, { method: 'GET', url: `${API}/minds/${mindId}/signed-url?fileName=t.vtt`, headers: bearer(p) })).json;
  const u = new URL(signed.signedUrl as string);
  const put = await inject(s.app, { method: 'PUT', url: u.pathname + u.search, payload: teamsVtt(turns), headers: { 'content-type': 'text/vtt' } });
  if (put.status !== 200) throw new Error(`upload failed: ${put.text}`);
  const form = new FormData();
  form.append('artifactId', signed.artifactId);
  const body = await multipart(form);
  const snap = await inject(s.app, {
    method: 'POST',
    url: `${API}/minds/${mindId}/snapshots`,
    headers: { ...bearer(p), 'content-type': body.contentType },
    payload: body.payload,
  });
  const pending = (await inject(s.app, { method: 'GET', url: `${API}/minds/${mindId}/signed-url?fileName=p.vtt`, headers: bearer(p) })).json;

  const webhook = await s.ctx.services.webhooks.createCredentials(accountId);
  const payloadWord = `payload-${name}-${tag}`;
  const basic = `Basic ${Buffer.from(`${webhook.username}:${webhook.password}`).toString('base64')}`;
  const event = await inject(s.app, { method: 'POST', url: '/webhook', headers: { authorization: basic }, payload: { secret: payloadWord } });
  return {
    name,
    accountId,
    email,
    password,
    apiKey,
    mindId,
    twinId,
    snapshotId: snap.json.mindAssessmentId as string,
    artifactId: signed.artifactId as string,
    pendingArtifactId: pending.artifactId as string,
    signedUrl: pending.signedUrl as string,
    webhook: { username: webhook.username, password: webhook.password },
    eventId: event.json.id as string,
    tagId: tagged.json.mind.tags[0].id as string,
    canaries: [word, mindName, payloadWord, tagName],
  };
}

/** A simulation of the party's mind (its snapshot completed), answered offline. */
export async function simulationOf(s: InProcess, p: Pick<Party, 'accountId' | 'mindId'>): Promise<string> {
  const auth = { accountId: p.accountId, tier: 'pro' as const, apiKeyId: null };
  const sim = await s.ctx.services.simulation.simulate(auth, { mindId: p.mindId, selectedSimulationModel: 'mind-reasoner-standard', scenario: { message: 'How do you start your day?' } });
  return sim.simulationId;
}

/** A correction of the party's mind. */
export async function correctionOf(s: InProcess, p: Pick<Party, 'accountId' | 'mindId'>): Promise<string> {
  const auth = { accountId: p.accountId, tier: 'pro' as const, apiKeyId: null };
  const correction = await s.ctx.services.corrections.create(auth, p.mindId, { scenario: 'How do you start your day?', answer: 'With a long walk and no phone.' });
  return correction.id;
}

/** A review link of the party's mind: its id and the token its URL carries. */
export async function reviewLinkOf(s: InProcess, p: Pick<Party, 'accountId' | 'mindId'>): Promise<{ reviewLinkId: string; reviewToken: string }> {
  const auth = { accountId: p.accountId, tier: 'pro' as const, apiKeyId: null };
  const made = await s.ctx.services.reviewLinks.create(auth, p.mindId);
  return { reviewLinkId: made.reviewLink.id, reviewToken: new URL(made.url).pathname.split('/').pop() ?? '' };
}

/** A panel asking the party's mind two questions (left queued when no worker runs). */
export async function panelOf(s: InProcess, p: Pick<Party, 'accountId' | 'mindId'>): Promise<string> {
  const auth = { accountId: p.accountId, tier: 'pro' as const, apiKeyId: null };
  const panel = await s.ctx.services.panels.create(auth, {
    mindIds: [p.mindId],
    selectedSimulationModel: 'mind-reasoner-standard',
    questions: [
      { id: 'remote', text: 'Do you work remotely?', type: 'single', options: ['Yes', 'No'] },
      { id: 'coffee', text: 'How many cups of coffee a day?', type: 'number' },
    ],
  });
  return panel.id;
}

/** Accounts A and B, each with a completed snapshot and a simulation (the worker runs only while they are made). */
export async function buildWorld(s: InProcess): Promise<World> {
  const parties = [await makeParty(s, 'A'), await makeParty(s, 'B')];
  const worker = s.ctx.createWorker();
  worker.start();
  try {
    for (const p of parties) {
      await waitUntil(
        async () => {
          const st = await s.ctx.services.snapshots.status({ accountId: p.accountId, tier: 'pro', apiKeyId: null }, p.mindId, p.snapshotId);
          if (st.status === 'failed') throw new Error(`snapshot of ${p.name}: ${JSON.stringify(st)}`);
          return st.status === 'completed';
        },
        { what: `the snapshot of ${p.name} completed` },
      );
    }
  } finally {
    await worker.stop();
  }
  const [a, b] = await Promise.all(parties.map(async (p) => ({ ...p, simulationId: await simulationOf(s, p), panelId: await panelOf(s, p), correctionId: await correctionOf(s, p), ...(await reviewLinkOf(s, p)) })));
  return {
    a: a as Party,
    b: b as Party,
    ids: (p) => [p.accountId, p.mindId, p.twinId, p.snapshotId, p.artifactId, p.pendingArtifactId, p.eventId, p.tagId, p.simulationId, p.panelId, p.correctionId, p.reviewLinkId],
  };
}

/** The secrets of a party that must never be written to a log. */
export function secretsOf(p: Party): string[] {
  const signature = new URL(p.signedUrl).searchParams.get('signature') ?? '';
  return [p.apiKey, p.password, p.webhook.password, Buffer.from(`${p.webhook.username}:${p.webhook.password}`).toString('base64'), signature, p.reviewToken];
}

/**
 * What a request made by `actor` must never get back: the victim's canaries, or any of the
 * victim's ids the request did not itself carry. Returns the leaked string, or null.
 */
export function leakIn(world: World, victim: Party, requestText: string, answerText: string): string | null {
  for (const c of victim.canaries) if (answerText.includes(c)) return c;
  for (const id of world.ids(victim)) if (answerText.includes(id) && !requestText.includes(id)) return id;
  return null;
}

/** No 5xx; a 4xx from the API has the documented error shape (JSON, `{error:{code,message,details?}}`). */
export function errorShapeProblem(a: Answer, jsonErrors = true): string | null {
  if (a.status >= 500) return `status ${a.status}: ${a.text.slice(0, 300)}`;
  if (a.status >= 400 && jsonErrors) {
    if (!String(a.headers['content-type'] ?? '').startsWith('application/json')) return `${a.status} is not JSON: ${a.headers['content-type']}`;
    if (!ErrorBody.safeParse(a.json).success) return `${a.status} body is not the error shape: ${a.text.slice(0, 300)}`;
  }
  return null;
}

export interface Session {
  cookie: string;
  csrf: string;
}

/** Logs in on the dashboard through its forms (CSRF and all); the session's cookies and a CSRF token. */
export async function dashboardSession(app: FastifyInstance, email: string, password: string): Promise<Session> {
  const jar = new Map<string, string>();
  const keep = (h: string | string[] | number | undefined) => {
    for (const c of [h ?? []].flat().map(String)) {
      const [pair = ''] = c.split(';');
      const i = pair.indexOf('=');
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const page = await inject(app, { method: 'GET', url: '/login' });
  keep(page.headers['set-cookie']);
  const token = /name="_csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const login = await inject(app, {
    method: 'POST',
    url: '/login',
    headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ _csrf: token, email, password }).toString(),
  });
  if (login.status !== 303) throw new Error(`log-in failed: ${login.status} ${login.text.slice(0, 200)}`);
  keep(login.headers['set-cookie']);
  const keys = await inject(app, { method: 'GET', url: '/keys', headers: { cookie: cookie() } });
  keep(keys.headers['set-cookie']);
  const csrf = /name="csrf-token" content="([^"]+)"/.exec(keys.text)?.[1] ?? '';
  return { cookie: cookie(), csrf };
}

/** What changed in a party's objects since `buildWorld` (another account's requests must change nothing); [] when nothing. */
export async function changesTo(s: InProcess, p: Party): Promise<string[]> {
  const auth = { accountId: p.accountId, tier: 'pro' as const, apiKeyId: null };
  const out: string[] = [];
  const mind = await s.ctx.services.minds.get(auth, p.mindId).catch(() => null);
  if (mind?.name !== p.canaries[1]) out.push(`mind ${mind ? `renamed to ${mind.name}` : 'gone'}`);
  if (mind && JSON.stringify(mind.digitalTwins.map((t) => t.id)) !== JSON.stringify([p.twinId])) out.push('twins changed');
  if (mind && JSON.stringify(mind.tags.map((t) => [t.id, t.name])) !== JSON.stringify([[p.tagId, p.canaries[3]]])) out.push(`tags: ${JSON.stringify(mind.tags)}`);
  const snaps = mind ? (await s.ctx.services.snapshots.list(auth, p.mindId, 10)).items : [];
  if (JSON.stringify(snaps.map((x) => [x.id, x.status])) !== JSON.stringify([[p.snapshotId, 'completed']])) out.push(`snapshots: ${JSON.stringify(snaps.map((x) => x.id))}`);
  const events = (await s.ctx.services.webhooks.listEvents(auth, 10)).items;
  if (JSON.stringify(events.map((e) => e.id)) !== JSON.stringify([p.eventId])) out.push(`webhook events: ${events.length}`);
  if ((await s.ctx.store.repos.artifacts.byId(p.pendingArtifactId))?.state !== 'awaiting_upload') out.push('pending artifact used');
  if ((await s.ctx.services.accounts.listApiKeys(p.accountId)).length !== 1) out.push('API keys changed');
  if (!(await s.ctx.services.simulations.get(auth, p.simulationId).catch(() => null))) out.push('simulation gone');
  const panel = await s.ctx.services.panels.get(auth, p.panelId, false).catch(() => null);
  if (mind && !(await s.ctx.services.corrections.get(auth, p.mindId, p.correctionId).catch(() => null))) out.push('correction gone');
  const link = mind ? (await s.ctx.services.reviewLinks.list(auth, p.mindId)).find((l) => l.id === p.reviewLinkId) : undefined;
  if (mind && link?.status !== 'active') out.push(`review link ${link ? link.status : 'gone'}`);
  if (panel?.status !== 'queued') out.push(`panel ${panel ? panel.status : 'gone'}`);
  return out;
}
