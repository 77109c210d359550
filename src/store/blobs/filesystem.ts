import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkBlobKey, type BlobStore } from './blob-store.ts';
import { ByteLimit } from './byte-limit.ts';

/** Blobs as files under a root folder; written to a temp file, fsynced, then renamed into place. */
export class FilesystemBlobStore implements BlobStore {
  private readonly tmpDir: string;

  private readonly root: string;
  constructor(root: string) {
    this.root = root;
    this.tmpDir = path.join(root, '.tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  private pathOf(key: string): string {
    return path.join(this.root, checkBlobKey(key));
  }

  async putStream(key: string, body: Readable, opts: { maxBytes: number }): Promise<{ size: number }> {
    const target = this.pathOf(key);
    const tmp = path.join(this.tmpDir, `${crypto.randomUUID()}.part`);
    const limit = new ByteLimit(opts.maxBytes);
    try {
      const out = fs.createWriteStream(tmp, { flags: 'wx' });
      await pipeline(body, limit, out);
      await this.publish(tmp, target);
      return { size: limit.bytes };
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  async putBuffer(key: string, bytes: Buffer): Promise<void> {
    const target = this.pathOf(key);
    const tmp = path.join(this.tmpDir, `${crypto.randomUUID()}.part`);
    try {
      await fsp.writeFile(tmp, bytes, { flag: 'wx' });
      await this.publish(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  private async publish(tmp: string, target: string): Promise<void> {
    const fh = await fsp.open(tmp, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(tmp, target);
  }

  async get(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
  }

  async getStream(key: string): Promise<Readable> {
    // Opened now, so a missing file rejects here rather than as a stream error later.
    const fh = await fsp.open(this.pathOf(key), 'r');
    return fh.createReadStream();
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await fsp.stat(this.pathOf(key))).size;
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fsp.rm(this.pathOf(prefix), { recursive: true, force: true });
  }
}
