import crypto from 'node:crypto';

/** HMAC-SHA256 signatures for upload URLs: they bind the artifact id and the expiry time. */
export class UrlSigner {
  private readonly secret: Buffer;
  constructor(secret: Buffer) {
    this.secret = secret;
  }

  sign(artifactId: string, expiresUnix: number): string {
    return crypto.createHmac('sha256', this.secret).update(`upload:${artifactId}:${expiresUnix}`).digest('base64url');
  }

  verify(artifactId: string, expiresUnix: number, signature: string): boolean {
    const expected = Buffer.from(this.sign(artifactId, expiresUnix), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  }
}
