import fs from 'node:fs';
import path from 'node:path';
import type { MindsimClient } from '@mindsim/sdk';
import type { FileUpload } from '../../mcp/upload-tools.ts';

/** The service's default limit of an upload through a signed URL (MAX_UPLOAD_BYTES); a service set lower answers 413 itself. */
export const MAX_SIGNED_UPLOAD_BYTES = 50 * 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  '.vtt': 'text/vtt',
  '.pdf': 'application/pdf',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/** The size of the regular file at an absolute path, or an error saying what is wrong with it. */
async function readableFile(filePath: string): Promise<number> {
  if (!path.isAbsolute(filePath)) throw new Error(`filePath must be an absolute path; got "${filePath}".`);
  let st: fs.Stats;
  try {
    st = await fs.promises.stat(filePath);
    await fs.promises.access(filePath, fs.constants.R_OK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? (err as Error).message);
    throw new Error(`Cannot read ${filePath}: ${why}.`);
  }
  if (!st.isFile()) throw new Error(`${filePath} is not a file.`);
  if (st.size > MAX_SIGNED_UPLOAD_BYTES) {
    throw new Error(`${filePath} is ${st.size} bytes, over the upload limit of ${MAX_SIGNED_UPLOAD_BYTES} bytes (50 MB).`);
  }
  return st.size;
}

/**
 * upload_file_to_signed_url over stdio: streams the local file to the signed URL (without the API
 * key). Only to the service's own address or to an address get_signed_upload_url answered in this
 * session (S3 direct uploads), so a tool call cannot send a local file anywhere else.
 */
export async function uploadLocalFile(client: MindsimClient, signedOrigins: ReadonlySet<string>, upload: FileUpload) {
  let origin: string;
  try {
    origin = new URL(upload.signedUrl).origin;
  } catch {
    throw new Error('signedUrl is not a URL: pass the signedUrl that get_signed_upload_url answered.');
  }
  if (origin !== new URL(client.transport.baseUrl).origin && !signedOrigins.has(origin)) {
    throw new Error(`signedUrl points to ${origin}, which is not this service: pass the signedUrl that get_signed_upload_url answered.`);
  }
  const size = await readableFile(upload.filePath);
  const contentType = upload.contentType ?? CONTENT_TYPES[path.extname(upload.filePath).toLowerCase()] ?? 'application/octet-stream';
  await client.uploads.put(upload.signedUrl, fs.createReadStream(upload.filePath), { size, contentType });
  return { uploadedBytes: size, fileName: path.basename(upload.filePath) };
}
