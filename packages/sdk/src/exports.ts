import { API_PREFIX, type Transport } from './transport.ts';

/** A mind's export as it arrives: a zip archive whose README.json describes every other file. */
export interface MindExportDownload {
  /** The file name the service suggests (`mindsim-export-<slug>-<YYYY-MM-DD>.zip`), or null without one. */
  fileName: string | null;
  /** `application/zip`. */
  contentType: string;
  /** The archive's bytes as they arrive (read it once: this, `blob()` or `bytes()`). */
  body: ReadableStream<Uint8Array>;
  /** The whole archive in memory. */
  blob(): Promise<Blob>;
  bytes(): Promise<Uint8Array>;
}

/** The `filename` of a Content-Disposition header (quoted or not), or null. */
export function dispositionFileName(header: string | null): string | null {
  const m = /filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(header ?? '');
  return m?.[1] ?? m?.[2] ?? null;
}

/** `GET /minds/{id}/export`: everything stored about the mind's person, as one streamed zip. */
export async function downloadExport(transport: Transport, mindId: string, signal?: AbortSignal): Promise<MindExportDownload> {
  const res = await transport.send({ method: 'GET', path: `${API_PREFIX}/minds/${encodeURIComponent(mindId)}/export`, signal });
  if (!res.body) throw new Error('The export answered without a body.');
  const body = res.body;
  return {
    fileName: dispositionFileName(res.headers.get('content-disposition')),
    contentType: res.headers.get('content-type') ?? 'application/zip',
    body,
    blob: () => new Response(body).blob(),
    bytes: async () => new Uint8Array(await new Response(body).arrayBuffer()),
  };
}
