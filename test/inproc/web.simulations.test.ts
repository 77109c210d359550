import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sampleInterview, teamsVtt } from '../../testkit/fixtures.ts';
import { blobOf, waitFor, type TestSdk } from '../../testkit/sdk.ts';
import { startService, type Service } from '../../testkit/service.ts';
import { WebClient } from '../support/web.ts';

/** The dashboard's conversations: the playground keeps one going, the mind page lists them, a page shows each. */
let srv: Service;
let sdk: TestSdk;
let web: WebClient;
let mindPath = '';
const PASSWORD = 'a long enough password';

before(async () => {
  srv = await startService();
  sdk = srv.sdk();
  const { email } = await srv.admin.setPassword(srv.ownerAccountId, PASSWORD);
  web = new WebClient(srv.baseUrl);
  assert.equal((await web.logIn(email, PASSWORD)).status, 303);
  const { mind } = await sdk.minds.create('Sam Okafor');
  const r = await sdk.snapshots.create(mind.id, { file: blobOf(teamsVtt(sampleInterview())), fileName: 'interview.vtt' });
  assert.equal((await waitFor(sdk, mind.id, r.mindAssessmentId)).status, 'completed');
  mindPath = `/minds/${mind.id}`;
});
after(() => srv?.close());

const conversationIn = (html: string) => /id="conversation-id" name="conversationId" value="([0-9a-f-]*)"/.exec(html)?.[1];

async function ask(message: string, conversationId: string) {
  const token = await web.csrf(mindPath);
  const r = await web.request('POST', `${mindPath}/simulate`, { message, conversationId }, { 'hx-request': 'true', 'x-csrf-token': token });
  assert.equal(r.status, 200, r.text);
  return r.text;
}

describe('conversations in the dashboard', () => {
  it('the playground keeps one conversation going, lists it, shows it on its page and starts a new one on request', async () => {
    const page = await web.get(mindPath);
    assert.match(page.text, /<h2 id="conversations-title">Conversations<\/h2>/);
    assert.match(page.text, /No conversations yet/);
    assert.equal(conversationIn(page.text), '', 'a new conversation at first');
    assert.match(page.text, new RegExp(`<a href="${mindPath}#playground-title">New conversation</a>`));

    const first = await ask('We are about to hire two engineers. What would you look for?', '');
    const id = conversationIn(first) ?? '';
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.match(first, /id="conversation-id"[^>]*hx-swap-oob="true"/, 'the form takes the conversation for the next question');
    assert.match(first, /<div id="conversations" hx-swap-oob="true">[\s\S]*We are about to hire two engineers/);
    const second = await ask('What would you do first?', id);
    assert.equal(conversationIn(second), id, 'the follow-up continues it');
    assert.match(second, new RegExp(`href="${mindPath}/conversations/${id}"[^>]*>the whole conversation`));
    assert.equal((await sdk.simulations.get(id)).simulation.messageCount, 4);

    const listed = await web.get(mindPath);
    assert.match(listed.text, new RegExp(`<td><a href="${mindPath}/conversations/${id}">We are about to hire two engineers\\. What would you look for\\?</a></td>[\\s\\S]*?<td>4</td>`));
    const conversation = await web.get(`${mindPath}/conversations/${id}`);
    assert.equal(conversation.status, 200);
    assert.equal(conversation.text.match(/class="message message-user"/g)?.length, 2);
    assert.equal(conversation.text.match(/class="message message-assistant"/g)?.length, 2);
    assert.match(conversation.text, /<strong>You:<\/strong> What would you do first\?/);
    assert.match(conversation.text, new RegExp(`href="${mindPath}\\?conversation=${id}#playground-title">Continue this conversation`));
    const resumed = await web.get(`${mindPath}?conversation=${id}`);
    assert.equal(conversationIn(resumed.text), id);
    assert.match(resumed.text, /Continuing <a href=/);
    assert.equal(conversationIn((await web.get(`${mindPath}?conversation=not-a-uuid`)).text), '');
  });

  it('another account and another mind get 404 for a conversation', async () => {
    const { simulations } = await sdk.simulations.list();
    const id = simulations[0]?.id ?? '';
    const other = new WebClient(srv.baseUrl);
    await other.signUp('web-other@example.com', PASSWORD);
    assert.equal((await other.get(`${mindPath}/conversations/${id}`)).status, 404);
    const { mind } = await sdk.minds.create('Another');
    assert.equal((await web.get(`/minds/${mind.id}/conversations/${id}`)).status, 404);
    assert.equal((await web.get(`${mindPath}/conversations/00000000-0000-4000-8000-000000000000`)).status, 404);
    assert.equal(conversationIn((await web.get(`/minds/${mind.id}?conversation=${id}`)).text), '', "another mind's conversation is not continued");
  });
});
