import { actorOf, type AccessLogService } from '../../domain/access-log.ts';
import type { AuthContext } from '../../domain/accounts.ts';
import { DomainError } from '../../kernel/errors.ts';
import { each, pick, str, strings } from './audit.ts';

/** What a backend call's audit entry reads: its arguments and, once it succeeded, its answer. */
interface McpCall {
  args: readonly unknown[];
  /** Undefined when the call was refused (403). */
  result: unknown;
  auth: AuthContext;
  accessLog: AccessLogService;
  /** The minds a refused call would have touched (DomainError.mindIds): each gets its row. */
  refused?: readonly string[] | undefined;
}

export interface McpAuditSpec {
  action: string;
  minds: (c: McpCall) => readonly string[] | Promise<readonly string[]>;
  resource?: (c: McpCall) => string | undefined;
}

const some = (...ids: Array<string | undefined>) => ids.filter((x): x is string => x !== undefined);
/** The mindId argument: a string first argument, or the `mindId` of an object one. */
const argMind = (c: McpCall) => some(str(c.args[0]) ?? str(pick(c.args[0], 'mindId')));
const panelMinds = (c: McpCall) => {
  const id = str(c.args[0]) ?? str(pick(c.result, 'id'));
  return id ? c.accessLog.mindsOfPanel(c.auth, id) : [];
};

/**
 * The MCP tools' access log, per call of the backend the tools run on (`/mcp`'s ServiceBackend,
 * by method name): every method is either here or in MCP_NOT_CONTENT (test/inproc/audit.routes.test.ts
 * checks). A tool that calls a method repeatedly (run_panel polls get_panel) writes one row per
 * mind and action for its request.
 */
export const MCP_AUDITED: Readonly<Record<string, McpAuditSpec>> = {
  createMind: { action: 'mind.create', minds: (c) => some(str(pick(c.result, 'mind', 'id'))) },
  listMinds: { action: 'minds.list', minds: () => [] },
  allMinds: { action: 'minds.list', minds: () => [] },
  searchMinds: { action: 'minds.search', minds: () => [] },
  setConsent: { action: 'consent.change', minds: argMind },
  setRedaction: { action: 'mind.update', minds: argMind },
  uploadTranscript: { action: 'snapshot.create', minds: argMind, resource: (c) => str(pick(c.result, 'mindAssessmentId')) },
  signedUploadUrl: { action: 'upload.create', minds: argMind, resource: (c) => str(pick(c.result, 'artifactId')) },
  createSnapshot: { action: 'snapshot.create', minds: argMind, resource: (c) => str(pick(c.result, 'mindAssessmentId')) },
  simulate: { action: 'simulate', minds: argMind, resource: (c) => str(pick(c.result, 'simulationId')) ?? str(pick(c.args[0], 'conversationId')) },
  listSimulations: { action: 'simulations.list', minds: (c) => (c.result === undefined ? argMind(c) : each(pick(c.result, 'simulations'), 'mindId')) },
  getSimulation: { action: 'simulation.read', minds: (c) => some(str(pick(c.result, 'simulation', 'mindId'))), resource: (c) => str(c.args[0]) },
  getProfile: { action: 'profile.read', minds: argMind },
  correctSimulation: { action: 'correction.create', minds: (c) => some(str(pick(c.result, 'correction', 'mindId'))), resource: (c) => str(pick(c.result, 'correction', 'id')) },
  createCorrection: { action: 'correction.create', minds: argMind, resource: (c) => str(pick(c.result, 'correction', 'id')) },
  listCorrections: { action: 'corrections.list', minds: argMind },
  createPanel: {
    action: 'panel.create',
    minds: (c) => (c.result === undefined ? strings(pick(c.args[0], 'mindIds')) : panelMinds(c)),
    resource: (c) => str(pick(c.result, 'id')),
  },
  getPanel: { action: 'panel.read', minds: panelMinds, resource: (c) => str(c.args[0]) },
  panelAnswers: { action: 'panel.answers', minds: (c) => each(pick(c.result, 'answers'), 'mindId'), resource: (c) => str(c.args[0]) },
};

export const MCP_NOT_CONTENT: Readonly<Record<string, string>> = {
  snapshotStatus: 'a processing status',
};

/**
 * The backend of one `/mcp` request, recording each audited call's rows (committed before the
 * call answers, so before the tool's result is written) and each refused one (403) as `.denied`.
 */
export function auditingBackend<T extends object>(backend: T, auth: AuthContext, accessLog: AccessLogService, ip: string): T {
  const seen = new Set<string>();
  const record = async (spec: McpAuditSpec, c: McpCall, denied: boolean) => {
    const minds = c.refused?.length ? c.refused : await spec.minds(c);
    const action = denied ? `${spec.action}.denied` : spec.action;
    const resourceId = spec.resource?.(c) ?? null;
    const fresh = (minds.length > 0 ? minds : [null]).filter((mindId) => {
      const key = `${action}|${mindId}|${resourceId}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    try {
      await accessLog.record(fresh.map((mindId) => ({ accountId: auth.accountId, actor: actorOf(auth), action, mindId, resourceId, ip })));
    } catch {
      throw new DomainError('unavailable', 'audit_unavailable', 'The access could not be recorded in the audit log, so it was not answered. Try again.');
    }
  };
  return new Proxy(backend, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      const spec = typeof prop === 'string' ? MCP_AUDITED[prop] : undefined;
      if (typeof value !== 'function' || !spec) return value;
      return async (...args: unknown[]) => {
        let result: unknown;
        try {
          result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        } catch (err) {
          if (err instanceof DomainError && err.kind === 'forbidden') await record(spec, { args, result: undefined, auth, accessLog, refused: err.mindIds }, true);
          throw err;
        }
        await record(spec, { args, result, auth, accessLog }, false);
        return result;
      };
    },
  });
}
