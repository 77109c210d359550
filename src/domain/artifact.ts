/** What names an uploaded file (an artifact): its file name and where its bytes live in the blob store. */
import path from 'node:path';

const EXT_BY_TYPE: Record<string, string> = {
  'text/vtt': '.vtt',
  'application/pdf': '.pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
};

/** `<artifactId><ext>`: the extension kept from the client's file name or media type, nothing else. */
export function safeFileName(artifactId: string, fileName?: string, contentType?: string): string {
  const fromName = fileName ? path.extname(path.basename(fileName.replaceAll('\\', '/'))).toLowerCase() : '';
  const ext = /^\.[a-z0-9]{1,8}$/.test(fromName)
    ? fromName
    : (EXT_BY_TYPE[(contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''] ?? '');
  return `${artifactId}${ext}`;
}

const TYPE_BY_EXT: Record<string, string> = Object.fromEntries(Object.entries(EXT_BY_TYPE).map(([type, ext]) => [ext, type]));

/**
 * The media type to upload a file with: the client's own, else the one its file name's extension
 * names (VTT, PDF, DOCX), else application/octet-stream. Only a hint: the file's type is decided
 * from its bytes when the snapshot is processed.
 */
export function uploadContentType(fileName?: string, contentType?: string): string {
  const given = contentType?.trim();
  if (given) return given;
  const ext = fileName ? path.extname(path.basename(fileName.replaceAll('\\', '/'))).toLowerCase() : '';
  return TYPE_BY_EXT[ext] ?? 'application/octet-stream';
}

/** An artifact's blob; without the artifact id, the mind's folder of them (deleted with the mind). */
export const artifactBlobKey = (mindId: string, artifactId?: string) => `artifacts/${mindId}${artifactId ? `/${artifactId}` : ''}`;
/**
 * Where a client writes through a presigned URL (direct uploads): never read, only copied to the
 * artifact's key. Without the artifact id, the mind's folder of them.
 */
export const artifactUploadKey = (mindId: string, artifactId?: string) => `uploads/${mindId}${artifactId ? `/${artifactId}` : ''}`;
